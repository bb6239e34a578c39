import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@yuelu/db";
import type { FastifyReply, FastifyRequest } from "fastify";
import { addSeconds, SECONDS } from "../../lib/time.ts";

/** Cookie names fixed by ARCHITECTURE §3: `sid` is the only one the server trusts. */
export const SID_COOKIE = "sid";
export const USERID_COOKIE = "userid";
export const NAME_COOKIE = "name";

export interface SessionUser {
  sessionId: string;
  userId: number;
  nickName: string;
  deleteRequestedAt: Date | null;
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

/** The signed-in user behind a sid token, or null when the token is unknown or expired. */
export async function findSession(db: Db, token: string): Promise<SessionUser | null> {
  const id = hashToken(token);
  const session = await db.session.findUnique({
    where: { id },
    select: {
      expiresAt: true,
      lastSeenAt: true,
      user: { select: { id: true, nickName: true, deleteRequestedAt: true, deletedAt: true } },
    },
  });
  const now = Date.now();
  if (!session || session.expiresAt.getTime() <= now || session.user.deletedAt) return null;
  if (now - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    // Best effort, and at most every few minutes, so reads do not turn into writes.
    db.session.update({ where: { id }, data: { lastSeenAt: new Date(now) } }).catch(() => {});
  }
  return {
    sessionId: id,
    userId: session.user.id,
    nickName: session.user.nickName,
    deleteRequestedAt: session.user.deleteRequestedAt,
  };
}

export async function destroySession(db: Db, token: string): Promise<void> {
  await db.session.deleteMany({ where: { id: hashToken(token) } });
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
