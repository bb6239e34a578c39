import type { UserInfo } from "@yuelu/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { ReadCache } from "../lib/read-cache.ts";
import { SessionCache } from "../lib/session-cache.ts";
import type { SessionUser } from "../modules/account/sessions.ts";
import type { PolledOrder } from "../modules/payments/service.ts";

declare module "fastify" {
  interface FastifyInstance {
    sessionCache: SessionCache<SessionUser>;
    userInfoCache: ReadCache<number, UserInfo>;
    /** orders as check_pay_result reads them, by order number */
    orderPollCache: ReadCache<string, PolledOrder | null>;
  }
}

/**
 * The in-process caches of the hot paths. They listen to the event bus, which carries every change
 * the business rules announce after their commits — from this process, other API replicas and the
 * workers alike.
 */
export default fp(
  async (app: FastifyInstance) => {
    const sessions = new SessionCache<SessionUser>();
    // isMember flips when the membership ends: a cached "member" is never served past that second.
    const userInfo = new ReadCache<number, UserInfo>(30_000, 50_000, (info) =>
      info.isMember ? info.memberEffectiveTime * 1000 : undefined,
    );
    // An open order is polled every 5 s by its cashier (maybe on several devices): its status changes
    // arrive as events; the short TTL bounds the rest, and an expiry is never served late.
    const orders = new ReadCache<string, PolledOrder | null>(2_000, 100_000, (o) => o?.expires_at.getTime());
    app.deps.events.subscribe(sessions.onEvent);
    app.deps.events.subscribe((event) => {
      if (event.type === "user.changed") userInfo.invalidate(event.userId);
      if (event.type === "order.changed" || event.type === "order.paid") orders.invalidate(event.orderNumber);
    });
    app.decorate("sessionCache", sessions);
    app.decorate("userInfoCache", userInfo);
    app.decorate("orderPollCache", orders);
  },
  { name: "caches", dependencies: ["deps"] },
);
