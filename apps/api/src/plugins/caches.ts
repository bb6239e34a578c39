import type { UserInfo } from "@yuelu/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { SessionCache } from "../lib/session-cache.ts";
import { UserInfoCache } from "../lib/user-info-cache.ts";
import type { SessionUser } from "../modules/account/sessions.ts";

declare module "fastify" {
  interface FastifyInstance {
    sessionCache: SessionCache<SessionUser>;
    userInfoCache: UserInfoCache<UserInfo>;
  }
}

/**
 * The in-process caches of the hot path. They listen to the event bus, which carries every
 * "user.changed" / "session.ended" the business rules publish after their commits — from this
 * process, other API replicas and the workers alike.
 */
export default fp(
  async (app: FastifyInstance) => {
    const sessions = new SessionCache<SessionUser>();
    // isMember flips when the membership ends: a cached "member" is never served past that second.
    const userInfo = new UserInfoCache<UserInfo>(30_000, 50_000, (info) =>
      info.isMember ? info.memberEffectiveTime * 1000 : undefined,
    );
    app.deps.events.subscribe(sessions.onEvent);
    app.deps.events.subscribe(userInfo.onEvent);
    app.decorate("sessionCache", sessions);
    app.decorate("userInfoCache", userInfo);
  },
  { name: "caches", dependencies: ["deps"] },
);
