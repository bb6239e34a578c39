import { z } from "zod";
import { INVITE_CODE_PATTERN } from "./limits.ts";

/** The account service (ARCHITECTURE §3). */

/** Mainland mobile numbers (11 digits from 1[3-9]); an optional +86 is dropped. */
export const ZPhone = z
  .string({ error: "is required" })
  .trim()
  .transform((v) => v.replace(/^\+?86[-\s]?/, ""))
  .pipe(z.string().regex(/^1[3-9]\d{9}$/, "must be an 11-digit mobile number"));

/**
 * `altcha`: a solved proof-of-work challenge (GET /account/api/sms/challenge; ALTCHA v1 payload, base64
 * JSON), needed only once the sender's address has asked for many codes lately (10008 says so).
 */
export const ZSmsSendBody = z.object({ phone: ZPhone, altcha: z.string().max(2000).optional() });

/** An ALTCHA v1 challenge: find `number` ≤ `maxnumber` with hex(SHA-256(salt + number)) = challenge. */
export const ZSmsChallenge = z.object({
  algorithm: z.literal("SHA-256"),
  challenge: z.string(),
  maxnumber: z.number().int(),
  salt: z.string(),
  signature: z.string(),
});
export type SmsChallenge = z.infer<typeof ZSmsChallenge>;
/** devCode: the code itself, only from the console provider to a client on this machine (never in production). */
export const ZSmsSendData = z.object({
  sent: z.boolean(),
  expiresIn: z.number().int(),
  devCode: z.string().optional(),
  /** where a console-provider code went when it is not in this answer: "log" (the server's log) */
  codeIn: z.enum(["sms", "log", "answer"]),
});
export type SmsSendData = z.infer<typeof ZSmsSendData>;

const ZSmsCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "must be 6 digits");
const ZPassword = z.string().min(8, "at least 8 characters").max(64, "at most 64 characters");

/**
 * An optional invite code given at sign-up. Case and surrounding spaces do not matter; anything that
 * cannot be a code becomes undefined, because an invite code never blocks a login.
 */
export const ZInviteCodeParam = z
  .string()
  .optional()
  .catch(undefined)
  .transform((value) => {
    const code = value?.trim().toUpperCase();
    return code && INVITE_CODE_PATTERN.test(code) ? code : undefined;
  });

/**
 * Login with an SMS code, or with a password; a code login may also set a password. `inviteCode`
 * (someone else's code) earns a new account the invitation gift; unknown codes are ignored.
 */
export const ZLoginBody = z
  .object({
    phone: ZPhone,
    code: ZSmsCode.optional(),
    password: ZPassword.optional(),
    inviteCode: ZInviteCodeParam,
  })
  .refine((b) => b.code !== undefined || b.password !== undefined, {
    message: "code or password is required",
    path: ["code"],
  });
export const ZLoginData = z.object({ userId: z.number().int(), userName: z.string() });
