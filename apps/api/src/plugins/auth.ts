import { StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { requestLang } from "../lib/lang.ts";
import { type SessionUser, sessionOf } from "../modules/account/sessions.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** the signed-in user, from the `sid` cookie only; null for anonymous visitors */
    session: SessionUser | null;
  }
  interface FastifyContextConfig {
    /**
     * 'user' (default under /voice_yuelu): signed in, and the account not being deleted (else 10006);
     * 'deleting': signed in, pending deletion allowed (deletion status and cancel);
     * 'public': anyone.
     */
    auth?: "user" | "deleting" | "public";
  }
}

/** Loads the session behind `sid` for every request; enforcement is `requireAuth` below. */
export default fp(
  async (app: FastifyInstance) => {
    app.decorateRequest("session", null);
    app.decorateRequest("lang", null);
    app.addHook("onRequest", async (request) => {
      requestLang(request);
      request.session = await sessionOf(request, app.deps.sql, app.sessionCache);
    });
  },
  { name: "auth", dependencies: ["deps", "caches"] },
);

/** onRequest hook of the /voice_yuelu scope: applies each route's `config.auth`. */
export async function requireAuth(request: FastifyRequest) {
  const mode = request.routeOptions.config.auth ?? "user";
  if (mode === "public") return;
  if (!request.session) throw new AppError(StatusCode.NotLoggedIn);
  if (mode === "user" && request.session.deleteRequestedAt) throw new AppError(StatusCode.UserDeleted);
}

/** The signed-in user's id inside a route that required sign-in. */
export function userIdOf(request: FastifyRequest): number {
  if (!request.session) throw new AppError(StatusCode.NotLoggedIn);
  return request.session.userId;
}
