import { z } from "zod";
import { zSource } from "./common.ts";

/** Spec §3 Session (what the SPA keeps about the visitor). */
export const ZSession = z.object({
  userId: z.string(),
  userName: z.string(),
  status: z.boolean(),
  tempCode: z.string(),
  phoneNumber: z.string(),
  header: z.string(),
  megared: z.boolean(),
  megaredMessage: z.string(),
});

/** Spec §3 User info, as GET /api/v1/user/info answers it. Times are epoch seconds. */
export const ZUserInfo = z.object({
  userId: z.number().int(),
  userPhoto: z.string(),
  nickName: z.string(),
  phoneNumber: z.string(),
  isMember: z.boolean(),
  memberEffectiveTime: z.number().int(),
  infoCollectChannel: z.string(),
  infoCollectIdentity: z.string(),
  /** the 3-hour new-user gift was granted and not yet announced */
  received: z.boolean(),
  /** the 5-hour invitation gift was granted and not yet announced */
  receiveSuccess: z.boolean(),
  /** the 30-day membership (black card) was granted and not yet announced */
  blackProReceive: z.boolean(),
  createTime: z.number().int(),
  /** the user's own invite code, to share (`/account/login?invite=CODE` passes it on at sign-up) */
  inviteCode: z.string(),
});
export type UserInfo = z.infer<typeof ZUserInfo>;

const nickName = z.string().trim().min(1).max(20);
/** Update of the user info: the nickname, the avatar URL, and marking welcome gifts as shown. */
export const ZUpdateUserInfoBody = z.object({
  nickName: nickName.optional(),
  userPhoto: z
    .string()
    .max(500)
    .regex(/^(https?:\/\/|\/)[^\s"'<>]*$/, "must be an http(s) or site-relative URL")
    .optional(),
  giftsShown: z
    .union([z.array(z.enum(["new_user", "invite", "black_card"])), z.enum(["new_user", "invite", "black_card"])])
    .optional(),
});

/** Spec §3 Assets. */
export const ZAssets = z.object({
  allTimeCard: z.number().int(),
  allCoinNumber: z.number().int(),
});
export type Assets = z.infer<typeof ZAssets>;

/** Spec §3 / ARCHITECTURE §2a storage info, in seconds. */
export const ZStorageInfo = z.object({
  timeUsedToday: z.number().int(),
  timeLimitToday: z.number().int(),
  timeUsed: z.number().int(),
  timeLimit: z.number().int(),
  auth: z.number().int(),
});
export type StorageInfo = z.infer<typeof ZStorageInfo>;
export const ZStorageInfoQuery = z.object({ userId: z.coerce.number().int().optional(), source: zSource });

export const ZDeleteAccountStatus = z.object({
  /** 1 while a deletion is pending, 0 otherwise */
  status: z.number().int(),
  deleteTime: z.number().int(),
  purgeTime: z.number().int(),
});

export const ZCheckLogin = z.object({ login: z.boolean() });
export const ZLastLogin = z.object({ lastLoginTime: z.number().int() });

export const ZVirtualLoginQuery = z.object({
  tempCode: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, - and _ only"),
  source: zSource,
});
export const ZVirtualLogin = z.object({ tempCode: z.string(), firstSeen: z.boolean() });

/** Spec §3 Survey options: lists of identities and channels. */
export const ZSurveyOption = z.object({ id: z.number().int(), name: z.string(), value: z.string() });
export const ZInfoCollect = z.object({ identityList: z.array(ZSurveyOption), channelList: z.array(ZSurveyOption) });
export const SURVEY_SKIP = "Skip";
export const ZUpdateInfoCollectBody = z
  .object({
    identity: z.string().trim().min(1).max(50).optional(),
    channel: z.string().trim().min(1).max(50).optional(),
  })
  .refine((b) => b.identity !== undefined || b.channel !== undefined, {
    message: "identity or channel is required",
    path: ["identity"],
  });
