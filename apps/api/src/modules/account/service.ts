import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { StatusCode } from "@yuelu/contracts";
import { type Db, Prisma, purgeAccount, type UserModel } from "@yuelu/db";
import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../lib/app-error.ts";
import { addSeconds, SECONDS } from "../../lib/time.ts";

import { hashPassword, verifyPassword } from "./password.ts";
import { grantWelcomeGifts } from "./welcome.ts";

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
  /** someone's invite code; only a new account uses it, and an unknown one is ignored */
  inviteCode?: string;
}

export interface LoginResult {
  user: UserModel;
  /**
   * Users whose rows this call wrote (created, purged, password set): the route publishes
   * invalidate.user for each once the call has returned, i.e. after the commits.
   */
  changedUserIds: number[];
}

/** Signs in with an SMS code (creating the account on first login) or a password. */
export async function login(deps: AppDeps, input: LoginInput, ip: string): Promise<LoginResult> {
  await enforce(deps, ACCOUNT_LIMITS.loginPerIp, ip);
  await enforce(deps, ACCOUNT_LIMITS.loginPerPhone, input.phone);
  const { db, config } = deps;
  const graceDays = config.ACCOUNT_DELETION_GRACE_DAYS;

  if (input.code !== undefined) {
    if (!(await consumeSmsCode(deps, input.phone, input.code))) throw new AppError(StatusCode.SmsCodeInvalid);
    const found = await findOrCreateUser(db, input.phone, graceDays, {
      inviteCode: input.inviteCode,
      deleteFiles: removeFiles(deps),
    });
    if (input.password !== undefined) {
      await db.user.update({
        where: { id: found.user.id },
        data: { passwordHash: await hashPassword(input.password) },
      });
      found.changedUserIds.push(found.user.id);
    }
    await deps.limiter.reset(ACCOUNT_LIMITS.loginPerPhone[0] + input.phone);
    return found;
  }

  const changedUserIds: number[] = [];
  let user = await db.user.findUnique({ where: { phone: input.phone } });
  if (user && deletionExpired(user.deleteRequestedAt, graceDays)) {
    await purgeAccount(db, user.id, removeFiles(deps));
    changedUserIds.push(user.id);
    user = null;
  }
  if (!(await verifyPassword(input.password ?? "", user?.passwordHash ?? null)) || !user) {
    throw new AppError(StatusCode.LoginFailed);
  }
  await deps.limiter.reset(ACCOUNT_LIMITS.loginPerPhone[0] + input.phone);
  return { user, changedUserIds };
}

function deletionExpired(requestedAt: Date | null, graceDays: number, now = new Date()): boolean {
  return requestedAt !== null && addSeconds(requestedAt, graceDays * SECONDS.day) <= now;
}

export function defaultNickName(phone: string): string {
  return `用户${phone.slice(-4)}`;
}

/** Attempts at creating an account when the database's invite code draw collides (one draw in ~10^6 at a million users). */
const CREATE_ATTEMPTS = 5;

/**
 * The phone's account; a fresh one on first login, or when the old one's deletion has come due.
 * A fresh account gets its welcome gifts in the transaction that creates it (see welcome.ts), and
 * the invitation gift when `inviteCode` is another existing user's code (a new account cannot have
 * given its own). Two first logins at once create one account: the loser's insert hits the unique
 * phone, its transaction (gifts included) rolls back, and it answers the winner's account.
 */
export async function findOrCreateUser(
  db: Db,
  phone: string,
  graceDays: number,
  options: { inviteCode?: string; now?: Date; deleteFiles?: (keys: string[]) => Promise<void> } = {},
): Promise<LoginResult & { created: boolean }> {
  const existing = await db.user.findUnique({ where: { phone } });
  if (existing && !deletionExpired(existing.deleteRequestedAt, graceDays)) {
    return { user: existing, created: false, changedUserIds: [] };
  }
  const changedUserIds: number[] = [];
  if (existing) {
    await purgeAccount(db, existing.id, options.deleteFiles);
    changedUserIds.push(existing.id);
  }
  const now = options.now ?? new Date();
  for (let attempt = 1; ; attempt++) {
    try {
      const user = await db.$transaction(async (tx) => {
        const inviter = options.inviteCode
          ? await tx.user.findFirst({
              where: { inviteCode: options.inviteCode, deletedAt: null },
              select: { id: true },
            })
          : null;
        const created = await tx.user.create({
          data: { phone, nickName: defaultNickName(phone), invitedById: inviter?.id ?? null },
        });
        await grantWelcomeGifts(tx, created.id, { invitedBy: inviter?.id ?? null, now });
        return tx.user.findUniqueOrThrow({ where: { id: created.id } });
      });
      return { user, created: true, changedUserIds: [...changedUserIds, user.id] };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
      // Two first logins at once: the other one created it.
      const winner = await db.user.findUnique({ where: { phone } });
      if (winner) return { user: winner, created: false, changedUserIds };
      // Otherwise the invite code the database drew was taken: draw again.
      if (attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/** Deletes a purged account's stored files (records, voices, speech). */
export function removeFiles(deps: Pick<AppDeps, "files">) {
  return async (keys: string[]) => {
    await Promise.all(keys.map((key) => deps.files.delete(key)));
  };
}
