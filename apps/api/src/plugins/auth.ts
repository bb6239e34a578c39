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
     * 'public': anyone;
     * 'admin': a signed-in operator (role admin, else 10007): the /voice_yuelu/admin routes.
     */
    auth?: "user" | "deleting" | "public" | "admin";
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
  if (mode !== "deleting" && request.session.deleteRequestedAt) throw new AppError(StatusCode.UserDeleted);
  if (mode === "admin" && !(await isAdminNow(request, request.session.userId))) {
    throw new AppError(StatusCode.AccessDenied);
  }
}

// Operator calls are rare: the role is read from the database on each one rather than trusted from
// the session cache, so a revoke (from the console or the CLI, on any node) holds at the next call.
const ADMIN_NOW = `SELECT 1 AS ok FROM users WHERE id = $1 AND role = 'admin' AND "deletedAt" IS NULL AND "disabledAt" IS NULL`;
async function isAdminNow(request: FastifyRequest, userId: number): Promise<boolean> {
  const rows = await request.server.deps.sql.query<{ ok: number }>("admin-now", ADMIN_NOW, [userId]);
  return rows.length === 1;
}

/** The signed-in user's id inside a route that required sign-in. */
export function userIdOf(request: FastifyRequest): number {
  if (!request.session) throw new AppError(StatusCode.NotLoggedIn);
  return request.session.userId;
}
