import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { StatusCode } from "@yuelu/contracts";
import { type Db, Prisma, purgeAccount } from "@yuelu/db";
import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../lib/app-error.ts";
import { addSeconds, SECONDS } from "../../lib/time.ts";

import { hashPassword, verifyPassword } from "./password.ts";

export const SMS_CODE_TTL_SECONDS = 300;
const SMS_CODE_MAX_ATTEMPTS = 5;

/** Rate limits of the account service: [key prefix, max hits, window seconds]. */
export const ACCOUNT_LIMITS = {
  smsPerPhoneMinute: ["sms:phone:", 1, 60],
  smsPerPhoneDay: ["sms:phone-day:", 10, SECONDS.day],
  smsPerIpHour: ["sms:ip:", 30, SECONDS.hour],
  loginPerPhone: ["login:phone:", 10, 15 * 60],
  loginPerIp: ["login:ip:", 60, 15 * 60],
} as const;

async function enforce(deps: AppDeps, limit: readonly [string, number, number], key: string) {
  const [prefix, max, window] = limit;
  if (!(await deps.limiter.hit(prefix + key, max, window))) {
    throw new AppError(StatusCode.TooManyRequests, {}, 429);
  }
}

function codeHash(secret: string, phone: string, code: string): string {
  return createHmac("sha256", secret).update(`${phone}:${code}`).digest("hex");
}

export async function sendSmsCode(deps: AppDeps, phone: string, ip: string) {
  await enforce(deps, ACCOUNT_LIMITS.smsPerIpHour, ip);
  await enforce(deps, ACCOUNT_LIMITS.smsPerPhoneMinute, phone);
  await enforce(deps, ACCOUNT_LIMITS.smsPerPhoneDay, phone);
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const row = await deps.db.smsCode.create({
    data: {
      phone,
      ip,
      codeHash: codeHash(deps.cookieSecret, phone, code),
      expiresAt: addSeconds(new Date(), SMS_CODE_TTL_SECONDS),
    },
  });
  try {
    await deps.sms.send(phone, code);
  } catch (error) {
    await deps.db.smsCode.delete({ where: { id: row.id } });
    throw error;
  }
  // The console provider also hands the code back, so a laptop install needs no SMS gateway;
  // never in production.
  const devCode = deps.sms.name === "console" && !deps.config.isProduction ? code : undefined;
  return { sent: true, expiresIn: SMS_CODE_TTL_SECONDS, ...(devCode ? { devCode } : {}) };
}

/**
 * Consumes the phone's latest live code if `code` matches it. The consume is a conditional
 * update, so two logins racing with the same code cannot both succeed.
 */
async function consumeSmsCode(deps: AppDeps, phone: string, code: string): Promise<boolean> {
  const { db } = deps;
  const latest = await db.smsCode.findFirst({
    where: { phone, consumedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
  });
  if (!latest || latest.attempts >= SMS_CODE_MAX_ATTEMPTS) return false;
  const expected = Buffer.from(latest.codeHash, "hex");
  const actual = Buffer.from(codeHash(deps.cookieSecret, phone, code), "hex");
  if (!timingSafeEqual(expected, actual)) {
    await db.smsCode.update({ where: { id: latest.id }, data: { attempts: { increment: 1 } } });
    return false;
  }
  const consumed = await db.smsCode.updateMany({
    where: { id: latest.id, consumedAt: null, attempts: { lt: SMS_CODE_MAX_ATTEMPTS } },
    data: { consumedAt: new Date() },
  });
  return consumed.count === 1;
}

export interface LoginInput {
  phone: string;
  code?: string;
  password?: string;
}

/** Signs in with an SMS code (creating the account on first login) or a password. */
export async function login(deps: AppDeps, input: LoginInput, ip: string) {
  await enforce(deps, ACCOUNT_LIMITS.loginPerIp, ip);
  await enforce(deps, ACCOUNT_LIMITS.loginPerPhone, input.phone);
  const { db, config } = deps;
  const graceDays = config.ACCOUNT_DELETION_GRACE_DAYS;

  if (input.code !== undefined) {
    if (!(await consumeSmsCode(deps, input.phone, input.code))) throw new AppError(StatusCode.SmsCodeInvalid);
    const user = await findOrCreateUser(db, input.phone, graceDays);
    if (input.password !== undefined) {
      await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(input.password) } });
    }
    await deps.limiter.reset(ACCOUNT_LIMITS.loginPerPhone[0] + input.phone);
    return user;
  }

  let user = await db.user.findUnique({ where: { phone: input.phone } });
  if (user && deletionExpired(user.deleteRequestedAt, graceDays)) {
    await purgeAccount(db, user.id);
    user = null;
  }
  if (!(await verifyPassword(input.password ?? "", user?.passwordHash ?? null)) || !user) {
    throw new AppError(StatusCode.LoginFailed);
  }
  await deps.limiter.reset(ACCOUNT_LIMITS.loginPerPhone[0] + input.phone);
  return user;
}

function deletionExpired(requestedAt: Date | null, graceDays: number, now = new Date()): boolean {
  return requestedAt !== null && addSeconds(requestedAt, graceDays * SECONDS.day) <= now;
}

export function defaultNickName(phone: string): string {
  return `用户${phone.slice(-4)}`;
}

/** The phone's account; a fresh one on first login, or when the old one's deletion has come due. */
export async function findOrCreateUser(db: Db, phone: string, graceDays: number) {
  const existing = await db.user.findUnique({ where: { phone } });
  if (existing && !deletionExpired(existing.deleteRequestedAt, graceDays)) return existing;
  if (existing) await purgeAccount(db, existing.id);
  try {
    return await db.user.create({ data: { phone, nickName: defaultNickName(phone) } });
  } catch (error) {
    // Two first logins at once: the other one created it.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return db.user.findUniqueOrThrow({ where: { phone } });
    }
    throw error;
  }
}
