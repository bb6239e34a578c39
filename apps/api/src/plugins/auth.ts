import { SCOPES, type Scope, StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import fp from "fastify-plugin";
import { requestLang } from "../lib/lang.ts";
import { routeConfig } from "../lib/route-config.ts";
import { apiKeySession, bearerToken } from "../modules/account/api-key-auth.ts";
import { type SessionUser, SID_COOKIE, sessionOf } from "../modules/account/sessions.ts";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * the signed-in user: from an `Authorization: Bearer` API key when the request carries one (the
     * cookie is then ignored), else from the `sid` cookie; null for anonymous visitors
     */
    session: SessionUser | null;
    /** how the caller signed in: a browser session (cookie) or an API key; null when anonymous */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /**
     * 'user' (default under /voice_yuelu): signed in, and the account not being deleted (else 10006);
     * 'deleting': signed in, pending deletion allowed (deletion status and cancel);
     * 'public': anyone;
     * 'admin': a signed-in operator (role admin, else 10007): the /voice_yuelu/admin routes.
     */
    auth?: "user" | "deleting" | "public" | "admin";
    /**
     * What the caller must be allowed to do (else 10007): 'api' by default, 'console' for auth 'admin';
     * 'keys' for API key management, which no key may do (docs/integrators.md "What a key may do").
     */
    scope?: Scope;
  }
}

/** Who is calling and what they may do: a browser session may do everything, a key what it holds. */
export type Principal =
  | { kind: "session"; userId: number; scopes: readonly Scope[] }
  | { kind: "apiKey"; userId: number; keyId: number; scopes: readonly Scope[] };

/**
 * Loads the caller for every request — the API key of a Bearer header, else the session behind
 * `sid` — and enforcement is `requireAuth` below. A Bearer header that names no live key is an
 * anonymous caller (10001), even beside a valid cookie: explicit credentials are never swapped.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.decorateRequest("session", null);
    app.decorateRequest("principal", null);
    app.decorateRequest("lang", null);
    // Synchronous when the session is in the cache (every signed-in page load after the first: bench/README.md);
    // an API key, or a session not seen lately, is looked up.
    app.addHook("onRequest", (request, _reply, done) => {
      requestLang(request);
      const bearer = bearerToken(request);
      if (bearer === undefined) {
        const signed = request.cookies[SID_COOKIE];
        const now = Date.now();
        const cached = signed ? app.sessionCache.get(signed, now) : undefined;
        if (!signed || cached) {
          const session = cached && cached.expiresAt > now ? cached : null;
          request.session = session;
          request.principal = session ? { kind: "session", userId: session.userId, scopes: SCOPES } : null;
          return done();
        }
      }
      identify(request, bearer).then(() => done(), done);
    });

    /** The caller of a request the cache cannot answer: its API key, or its session from the database. */
    async function identify(request: FastifyRequest, bearer: string | undefined) {
      if (bearer !== undefined) {
        const found = await apiKeySession(app.deps.sql, bearer);
        request.session = found?.session ?? null;
        request.principal = found
          ? { kind: "apiKey", userId: found.session.userId, keyId: found.keyId, scopes: found.scopes }
          : null;
        return;
      }
      request.session = await sessionOf(request, app.deps.sql, app.sessionCache);
      request.principal = request.session ? { kind: "session", userId: request.session.userId, scopes: SCOPES } : null;
    }
  },
  { name: "auth", dependencies: ["deps", "caches"] },
);

/**
 * onRequest hook of the /voice_yuelu scope: applies each route's `config.auth` (synchronously, but for
 * the console's routes, whose role is read from the database on each call).
 */
export function requireAuth(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  const config = routeConfig(request);
  const mode = config.auth ?? "user";
  if (mode === "public") return done();
  if (!request.session) return done(new AppError(StatusCode.NotLoggedIn));
  if (mode !== "deleting" && request.session.deleteRequestedAt) return done(new AppError(StatusCode.UserDeleted));
  // The console and key management are for a person at a browser: a key holds neither scope.
  const scope = config.scope ?? (mode === "admin" ? "console" : "api");
  if (!request.principal?.scopes.includes(scope)) return done(new AppError(StatusCode.AccessDenied));
  if (mode !== "admin") return done();
  isAdminNow(request, request.session.userId).then(
    (admin) => done(admin ? undefined : new AppError(StatusCode.AccessDenied)),
    done,
  );
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
