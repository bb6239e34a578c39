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

/** Login with an SMS code, or with a password; a code login may also set a password. */
export const ZLoginBody = z
  .object({ phone: ZPhone, code: ZSmsCode.optional(), password: ZPassword.optional() })
  .refine((b) => b.code !== undefined || b.password !== undefined, {
    message: "code or password is required",
    path: ["code"],
  });
export const ZLoginData = z.object({ userId: z.number().int(), userName: z.string() });

/** postMessage the login page sends to its parent window. */
export const LOGIN_SUCCESS_MESSAGE = "login-success";
