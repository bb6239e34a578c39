import type { UserInfo } from "@yuelu/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { InvalidationBus } from "../lib/invalidation.ts";
import { SessionCache } from "../lib/session-cache.ts";
import { UserInfoCache } from "../lib/user-info-cache.ts";
import type { SessionUser } from "../modules/account/sessions.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** publish here after a write that changes what is cached about a user (see UserInfoCache) */
    invalidate: InvalidationBus;
    sessionCache: SessionCache<SessionUser>;
    userInfoCache: UserInfoCache<UserInfo>;
  }
}

/** The in-process caches of the hot path and the bus that keeps them (and other replicas') honest. */
export default fp(
  async (app: FastifyInstance) => {
    const bus = new InvalidationBus(app.deps.redis);
    const sessions = new SessionCache<SessionUser>();
    const userInfo = new UserInfoCache<UserInfo>();
    bus.subscribe(sessions.onInvalidation);
    bus.subscribe(userInfo.onInvalidation);
    await bus.listen();
    app.addHook("onClose", () => bus.close());
    app.decorate("invalidate", bus);
    app.decorate("sessionCache", sessions);
    app.decorate("userInfoCache", userInfo);
  },
  { name: "caches", dependencies: ["deps"] },
);
