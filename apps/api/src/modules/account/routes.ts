import { randomBytes } from "node:crypto";
import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  StatusCode,
  ZInviteCodeParam,
  ZLoginBody,
  ZLoginData,
  ZPhone,
  ZSmsChallenge,
  ZSmsSendBody,
  ZSmsSendData,
} from "@yuelu/contracts";
import { AppError, findOrCreateAccount } from "@yuelu/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { requestLang } from "../../lib/lang.ts";
import { isLoopbackClient } from "../../lib/loopback.ts";
import { smsChallenge } from "./challenge.ts";
import { loginPage } from "./login-page.ts";
import { safeRedirect } from "./redirect.ts";
import { ACCOUNT_LIMITS, login, sendSmsCode } from "./service.ts";
import { clearSessionCookies, createSession, destroySession, setSessionCookies } from "./sessions.ts";

const tags = ["account"];
const ZRedirQuery = z.object({ redir: z.string().max(2000).optional(), lang: z.string().optional() });

/** The account service (ARCHITECTURE §3), mounted at /account. */
export default async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { config, db } = deps;
  const secureCookies = (config.PUBLIC_URL ?? "").startsWith("https://");

  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: number; nickName: string; disabledAt: Date | null },
  ) {
    // An operator disabled this account (docs/admin.md): no new session.
    if (user.disabledAt) throw new AppError(StatusCode.AccessDenied);
    const session = await createSession(db, user.id, {
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? "",
      ttlDays: config.SESSION_TTL_DAYS,
    });
    setSessionCookies(reply, session, { userId: user.id, userName: user.nickName }, secureCookies);
    return { userId: user.id, userName: user.nickName };
  }

  app.get("/login", { schema: { tags, querystring: ZRedirQuery } }, async (request, reply) => {
    const redir = safeRedirect(request.query.redir, request, config.PUBLIC_URL);
    // The page's own script and style carry a fresh nonce: nothing else may run or style it.
    const nonce = randomBytes(16).toString("base64");
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header(
        "content-security-policy",
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
          "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
      )
      .send(loginPage(requestLang(request), redir, nonce));
  });

  app.post(
    "/api/sms/send",
    { schema: { tags, body: ZSmsSendBody, response: { 200: envelopeOf(ZSmsSendData) } } },
    async (request) => ok(await sendSmsCode(deps, request.body, request.ip, isLoopbackClient(request))),
  );

  // The proof-of-work an address needs once it has asked for many codes (challenge.ts).
  app.get("/api/sms/challenge", { schema: { tags, response: { 200: envelopeOf(ZSmsChallenge) } } }, async (request) => {
    const [ipKey] = ACCOUNT_LIMITS.smsPerIpHour;
    return ok(await smsChallenge(deps.cookieSecret, await deps.limiter.count(ipKey + request.ip)));
  });

  app.post(
    "/api/login",
    { schema: { tags, body: ZLoginBody, response: { 200: envelopeOf(ZLoginData) } } },
    async (request, reply) => {
      const user = await login(deps, app.domain, request.body, request.ip);
      return ok(await signIn(request, reply, user));
    },
  );

  app.get("/logout", { schema: { tags, querystring: ZRedirQuery } }, async (request, reply) => {
    if (request.session) await destroySession(db, deps.events, request.session);
    clearSessionCookies(reply);
    return reply.redirect(safeRedirect(request.query.redir, request, config.PUBLIC_URL), 302);
  });

  // The spec's "fake login" for local development: no SMS, only on a loopback host outside production.
  app.get(
    "/dev-login",
    {
      schema: {
        tags,
        querystring: ZRedirQuery.extend({ phone: ZPhone.default("13800000000"), inviteCode: ZInviteCodeParam }),
      },
    },
    async (request, reply) => {
      if (config.isProduction || !isLoopbackClient(request)) return reply.callNotFound();
      const { phone, inviteCode } = request.query;
      const { user } = await findOrCreateAccount(app.domain, phone, { inviteCode });
      await signIn(request, reply, user);
      return reply.redirect(safeRedirect(request.query.redir, request, config.PUBLIC_URL), 302);
    },
  );
}
