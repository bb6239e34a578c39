import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@yuelu/db";
import { addSeconds, SECONDS } from "@yuelu/domain";
import type { EventPublisher, HotSql } from "@yuelu/runtime";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SessionCache } from "../../lib/session-cache.ts";

/** Cookie names fixed by ARCHITECTURE §3: `sid` is the only one the server trusts. */
export const SID_COOKIE = "sid";
export const USERID_COOKIE = "userid";
export const NAME_COOKIE = "name";

export interface SessionUser {
  sessionId: string;
  userId: number;
  nickName: string;
  deleteRequestedAt: Date | null;
  /** 'admin' opens /voice_yuelu/admin (checked on every call; a revoke drops cached sessions) */
  role: string;
  /** epoch ms */
  expiresAt: number;
}

// Only the token's hash is stored: a leaked sessions table does not sign anyone in.
function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function createSession(
  db: Db,
  userId: number,
  meta: { ip: string; userAgent: string; ttlDays: number },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = addSeconds(new Date(), meta.ttlDays * SECONDS.day);
  await db.session.create({
    data: { id: hashToken(token), userId, expiresAt, ip: meta.ip, userAgent: meta.userAgent.slice(0, 300) },
  });
  return { token, expiresAt };
}

const TOUCH_EVERY_MS = 5 * 60 * 1000;

interface SessionRow {
  user_id: number;
  nick_name: string;
  expires_at: Date;
  last_seen_at: Date;
  delete_requested_at: Date | null;
  role: string;
}

// A prepared statement on the hot path: every signed-in request may need it (bench/README.md).
const FIND_SESSION = `
  SELECT s."userId" AS user_id, u."nickName" AS nick_name, s."expiresAt" AS expires_at,
         s."lastSeenAt" AS last_seen_at, u."deleteRequestedAt" AS delete_requested_at, u.role
  FROM sessions s JOIN users u ON u.id = s."userId"
  WHERE s.id = $1 AND u."deletedAt" IS NULL AND u."disabledAt" IS NULL`;

/**
 * The signed-in user behind the request's signed sid cookie, or null when there is none or it is
 * forged, unknown or expired. Served from the session cache when it can be, keyed by the signed
 * cookie itself so a hit costs neither the signature check nor the hash; revocations invalidate it.
 */
export async function sessionOf(
  request: FastifyRequest,
  sql: HotSql,
  cache: SessionCache<SessionUser>,
  now = Date.now(),
): Promise<SessionUser | null> {
  const signed = request.cookies[SID_COOKIE];
  if (!signed) return null;
  const cached = cache.get(signed, now);
  if (cached) return cached.expiresAt > now ? cached : null;
  const token = readSidToken(request);
  if (!token) return null;
  const id = hashToken(token);
  const [row] = await sql.query<SessionRow>("find-session", FIND_SESSION, [id]);
  if (!row || row.expires_at.getTime() <= now) return null;
  if (now - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
    // Best effort, and at most every few minutes, so reads do not turn into writes.
    sql.exec('UPDATE sessions SET "lastSeenAt" = now() WHERE id = $1', [id]);
  }
  const session: SessionUser = {
    sessionId: id,
    userId: row.user_id,
    nickName: row.nick_name,
    deleteRequestedAt: row.delete_requested_at,
    role: row.role,
    expiresAt: row.expires_at.getTime(),
  };
  cache.set(signed, session, now);
  return session;
}

export async function destroySession(db: Db, events: EventPublisher, session: SessionUser): Promise<void> {
  await db.session.deleteMany({ where: { id: session.sessionId } });
  await events.publish({ type: "session.ended", userId: session.userId, sessionId: session.sessionId });
}

/** The sid token from the signed cookie, or undefined when absent or tampered with. */
export function readSidToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[SID_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

export function setSessionCookies(
  reply: FastifyReply,
  session: { token: string; expiresAt: Date },
  user: { userId: number; userName: string },
  secure: boolean,
) {
  const base = { path: "/", sameSite: "lax" as const, secure, expires: session.expiresAt };
  reply.setCookie(SID_COOKIE, session.token, { ...base, httpOnly: true, signed: true });
  // Display hints the SPA reads (spec §4); the server never trusts them.
  reply.setCookie(USERID_COOKIE, String(user.userId), base);
  reply.setCookie(NAME_COOKIE, user.userName, base);
}

export function clearSessionCookies(reply: FastifyReply) {
  for (const name of [SID_COOKIE, USERID_COOKIE, NAME_COOKIE]) reply.clearCookie(name, { path: "/" });
}
