import { z } from "zod";
import { zSource, zText } from "./common.ts";
import { NICKNAME_MAX } from "./limits.ts";

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

const nickName = zText({ min: 1, max: NICKNAME_MAX });
export const WELCOME_GIFT_KINDS = ["new_user", "invite", "black_card"] as const;
export type WelcomeGiftKind = (typeof WELCOME_GIFT_KINDS)[number];
/** Update of the user info: the nickname, the avatar URL, and marking welcome gifts as shown. */
export const ZUpdateUserInfoBody = z.object({
  nickName: nickName.optional(),
  userPhoto: z
    .string()
    .max(500)
    // none (""), a built-in avatar or the user's own upload: the domain checks which (updateProfile)
    .regex(/^((https?:\/\/|\/)[^\s"'<>]*)?$/, "must be an http(s) or site-relative URL")
    .optional(),
  giftsShown: z.union([z.array(z.enum(WELCOME_GIFT_KINDS)), z.enum(WELCOME_GIFT_KINDS)]).optional(),
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
export type DeleteAccountStatus = z.infer<typeof ZDeleteAccountStatus>;

export const ZUnreadSize = z.object({ unreadSize: z.number().int() });

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

/**
 * Spec §3 Survey options: lists of identities and channels. `name` is shown in the request's
 * language; `value` is what update_info_collect stores, the same in every language.
 */
const ZSurveyOption = z.object({ id: z.number().int(), name: z.string(), value: z.string() });
export const ZInfoCollect = z.object({ identityList: z.array(ZSurveyOption), channelList: z.array(ZSurveyOption) });
export type InfoCollect = z.infer<typeof ZInfoCollect>;
export const ZUpdateInfoCollectBody = z
  .object({
    identity: zText({ min: 1, max: 50 }).optional(),
    channel: zText({ min: 1, max: 50 }).optional(),
  })
  .refine((b) => b.identity !== undefined || b.channel !== undefined, {
    message: "identity or channel is required",
    path: ["identity"],
  });
