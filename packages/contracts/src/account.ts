import { z } from "zod";

/** Mainland mobile numbers (11 digits from 1[3-9]); an optional +86 is dropped. */
export const ZPhone = z
  .string({ error: "is required" })
  .trim()
  .transform((v) => v.replace(/^\+?86[-\s]?/, ""))
  .pipe(z.string().regex(/^1[3-9]\d{9}$/, "must be an 11-digit mobile number"));

export const ZSmsSendBody = z.object({ phone: ZPhone });
export const ZSmsSendData = z.object({
  sent: z.boolean(),
  expiresIn: z.number().int(),
  devCode: z.string().optional(),
});

export const ZSmsCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "must be 6 digits");
export const ZPassword = z.string().min(8, "at least 8 characters").max(64);

/** Invite codes: 8 characters from A–Z and 2–9 without the look-alikes I and O (the database generates them). */
export const INVITE_CODE_LENGTH = 8;
export const INVITE_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{8}$/;

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

/** postMessage the login page sends to its parent window. */
export const LOGIN_SUCCESS_MESSAGE = "login-success";
