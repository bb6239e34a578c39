import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { type SmsSendData, StatusCode } from "@yuelu/contracts";
import type { UserModel } from "@yuelu/db";
import {
  AppError,
  accountForPasswordSignIn,
  addSeconds,
  type DomainContext,
  findOrCreateAccount,
  SECONDS,
  setPasswordHash,
} from "@yuelu/domain";
import type { AppDeps } from "../../deps.ts";
import { withGuessLimits } from "../../lib/limiter.ts";
import { SMS_FREE_PER_ADDRESS, spendSolution } from "./challenge.ts";
import { hashPassword, verifyPassword } from "./password.ts";

export const SMS_CODE_TTL_SECONDS = 300;
const SMS_CODE_MAX_ATTEMPTS = 5;

/** Rate limits of the account service: [key prefix, max hits, window seconds]. */
export const ACCOUNT_LIMITS = {
  smsPerPhoneMinute: ["sms:phone:", 1, 60],
  smsPerPhoneDay: ["sms:phone-day:", 10, SECONDS.day],
  /** codes asked from one address: past this, each needs a solved proof-of-work challenge (challenge.ts) */
  smsPerIpHour: ["sms:ip:", SMS_FREE_PER_ADDRESS, SECONDS.hour],
  /** attempts from one address */
  loginPerIp: ["login:ip:", 60, 15 * 60],
  /** failures on one phone from one address: beyond this, that address is refused (10003) */
  loginFailuresPerPhoneIp: ["login:phone-ip:", 10, 15 * 60],
  /** failures on one phone from anywhere: counted to slow attempts down, never to refuse them */
  loginFailuresPerPhone: ["login:phone:", 0, 15 * 60],
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

/**
 * Sends a login code. The console provider writes it to the server's log; outside production it
 * also hands it back in the answer (`devCode`), but only to a client on this machine, so a laptop
 * install needs no SMS gateway while an install reachable from elsewhere never gives codes away.
 * Every request counts against its address first; past the address's free codes it needs a solved
 * challenge (`altcha`, else 10008); the per-phone limits apply either way.
 */
export async function sendSmsCode(
  deps: AppDeps,
  input: { phone: string; altcha?: string | undefined },
  ip: string,
  loopbackClient: boolean,
): Promise<SmsSendData> {
  const { phone } = input;
  const [ipKey, free, window] = ACCOUNT_LIMITS.smsPerIpHour;
  if (!(await deps.limiter.hit(ipKey + ip, free, window))) {
    await spendSolution(deps.cookieSecret, deps.limiter, input.altcha);
  }
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
  if (deps.sms.name !== "console") return { sent: true, expiresIn: SMS_CODE_TTL_SECONDS, codeIn: "sms" };
  if (loopbackClient && !deps.config.isProduction) {
    return { sent: true, expiresIn: SMS_CODE_TTL_SECONDS, codeIn: "answer", devCode: code };
  }
  return { sent: true, expiresIn: SMS_CODE_TTL_SECONDS, codeIn: "log" };
}

/**
 * Consumes the phone's latest live code if `code` matches it. Each try is counted on the code first,
 * in one conditional update (attempts < 5), and only a counted try is compared: parallel wrong codes
 * cannot compare more than five times. The consume is conditional too, so two logins racing with the
 * right code cannot both succeed.
 */
async function consumeSmsCode(deps: AppDeps, phone: string, code: string): Promise<boolean> {
  const { db } = deps;
  const live = await db.smsCode.findFirst({
    where: { phone, consumedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  if (!live) return false;
  // PostgreSQL re-checks `attempts < 5` on the locked row: however many race, five tries get through
  const [latest] = await db.smsCode.updateManyAndReturn({
    where: { id: live.id, consumedAt: null, attempts: { lt: SMS_CODE_MAX_ATTEMPTS } },
    data: { attempts: { increment: 1 } },
    select: { id: true, codeHash: true },
  });
  if (!latest) return false;
  const expected = Buffer.from(latest.codeHash, "hex");
  const actual = Buffer.from(codeHash(deps.cookieSecret, phone, code), "hex");
  if (!timingSafeEqual(expected, actual)) return false;
  const consumed = await db.smsCode.updateMany({
    where: { id: latest.id, consumedAt: null },
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

/** Failed sign-ins of one phone after which every further attempt on it is slowed down. */
const SLOW_DOWN_AFTER = 10;
const MAX_DELAY_MS = 5000;

/**
 * How long to hold an attempt on a phone that has failed `failures` times lately: nothing up to
 * SLOW_DOWN_AFTER, then 0.25 s doubling per failure, at most 5 s. Guessing slows down for everyone
 * while the owner, with the right code or password, still gets in — no lockout by strangers.
 */
export function slowDownMs(failures: number): number {
  if (failures < SLOW_DOWN_AFTER) return 0;
  return Math.min(MAX_DELAY_MS, 250 * 2 ** (failures - SLOW_DOWN_AFTER));
}

/**
 * Signs in with an SMS code (creating the account on first login) or a password. Limits: attempts
 * per IP; failures per phone *and* IP (10003 for that address only); failures per phone alone only
 * slow the answers down (slowDownMs), so nobody can lock someone else's phone out.
 */
export async function login(deps: AppDeps, domain: DomainContext, input: LoginInput, ip: string): Promise<UserModel> {
  const { limiter } = deps;
  const [phoneIpKey, phoneIpMax, phoneIpWindow] = ACCOUNT_LIMITS.loginFailuresPerPhoneIp;
  const [phoneKey, , phoneWindow] = ACCOUNT_LIMITS.loginFailuresPerPhone;
  const fromHere = `${phoneIpKey}${input.phone}@${ip}`;
  await enforce(deps, ACCOUNT_LIMITS.loginPerIp, ip);
  const wrong = new AppError(input.code !== undefined ? StatusCode.SmsCodeInvalid : StatusCode.LoginFailed);
  const user = await withGuessLimits(
    limiter,
    [{ key: fromHere, limit: phoneIpMax, windowSeconds: phoneIpWindow }],
    async () => {
      const delay = slowDownMs(await limiter.count(phoneKey + input.phone));
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const found = await verify(deps, domain, input);
      if (!found) {
        await limiter.hit(phoneKey + input.phone, 0, phoneWindow); // a count only: its answer is not used
        throw wrong;
      }
      return found;
    },
    (error) => error === wrong,
  );
  await limiter.reset(fromHere);
  return user;
}

/** The account the credentials open, or null when they are wrong. */
async function verify(deps: AppDeps, domain: DomainContext, input: LoginInput): Promise<UserModel | null> {
  if (input.code !== undefined) {
    if (!(await consumeSmsCode(deps, input.phone, input.code))) return null;
    const { user } = await findOrCreateAccount(domain, input.phone, { inviteCode: input.inviteCode });
    if (input.password !== undefined) await setPasswordHash(domain, user.id, await hashPassword(input.password));
    return user;
  }
  const user = await accountForPasswordSignIn(domain, input.phone);
  // verifyPassword does the same work without an account, so timing does not tell which phones exist.
  const matches = await verifyPassword(input.password ?? "", user?.passwordHash ?? null);
  return matches ? user : null;
}
