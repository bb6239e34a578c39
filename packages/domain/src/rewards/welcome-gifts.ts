import type { WelcomeGiftKind as GiftKind } from "@yuelu/contracts";
import { z } from "zod";
import { sendUserMessage, type UserMessage } from "../messages/send.ts";
import { SECONDS } from "../time.ts";
import type { Tx } from "../transaction.ts";
import { extendMembership } from "../wallet/membership.ts";
import { CARD_VALIDITY, grantTimeCard } from "../wallet/time-cards.ts";

/**
 * The welcome campaign, app_settings key 'welcome_gifts' (seeded; operators may edit it). Read at
 * grant time; a missing row or field means the default.
 */
export const WELCOME_GIFTS_KEY = "welcome_gifts";
const ZWelcomeGiftsSetting = z.object({
  newUserSeconds: z
    .number()
    .int()
    .min(0)
    .catch(3 * SECONDS.hour),
  inviteSeconds: z
    .number()
    .int()
    .min(0)
    .catch(5 * SECONDS.hour),
  blackCardDays: z.number().int().min(0).catch(30),
  blackCardEnabled: z.boolean().catch(true),
});
export type WelcomeGiftsSetting = z.infer<typeof ZWelcomeGiftsSetting>;

export async function welcomeGiftsSetting(tx: Tx): Promise<WelcomeGiftsSetting> {
  const row = await tx.appSetting.findUnique({ where: { key: WELCOME_GIFTS_KEY } });
  const value = row?.value && typeof row.value === "object" && !Array.isArray(row.value) ? row.value : {};
  return ZWelcomeGiftsSetting.parse(value);
}

/**
 * Grants a new account its welcome gifts, inside the transaction that creates it:
 * - 'new_user': a time card of newUserSeconds (3 h), valid 1 year;
 * - 'black_card': blackCardDays (30) of membership, while the campaign is enabled;
 * - 'invite': a time card of inviteSeconds (5 h), valid 1 year, when someone's invite code was given.
 * Each gift is a welcome_gifts row, unique per (userId, kind), and its card is unique per
 * (userId, 'welcome', kind): a gift is granted at most once. The account's one welcome message (what
 * the gifts were) is sent with them, dated at the sign-up. The rows' `shownAt` stays null until the
 * onboarding dialogs announce them (user info flags received / receiveSuccess / blackProReceive).
 * Writes `users` and `welcome_gifts`: the caller announces "user.changed" for its commit.
 */
export async function grantWelcomeGifts(
  tx: Tx,
  userId: number,
  options: { invitedBy?: number | null; now?: Date } = {},
): Promise<GiftKind[]> {
  const now = options.now ?? new Date();
  const setting = await welcomeGiftsSetting(tx);
  const granted: GiftKind[] = [];

  const gift = async (kind: GiftKind, give: () => Promise<unknown>) => {
    const { count } = await tx.welcomeGift.createMany({
      data: [{ userId, kind, grantedAt: now }],
      skipDuplicates: true,
    });
    if (count !== 1) return; // granted before
    await give();
    granted.push(kind);
  };
  const card = (kind: GiftKind, seconds: number) =>
    grantTimeCard(tx, { userId, seconds, validSeconds: CARD_VALIDITY.welcome, source: "welcome", refId: kind, now });

  if (setting.newUserSeconds > 0) await gift("new_user", () => card("new_user", setting.newUserSeconds));
  if (options.invitedBy && setting.inviteSeconds > 0) await gift("invite", () => card("invite", setting.inviteSeconds));
  if (setting.blackCardEnabled && setting.blackCardDays > 0) {
    await gift("black_card", () => extendMembership(tx, userId, setting.blackCardDays * SECONDS.day, now));
  }
  // The one welcome message, dated at the sign-up (never before the account existed).
  const { createdAt } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { createdAt: true } });
  await sendUserMessage(tx, userId, { ...welcomeMessage(granted, setting), at: createdAt > now ? createdAt : now });
  return granted;
}

/** The message that welcomes a new user and tells what the welcome gifts were (when there were any). */
function welcomeMessage(granted: GiftKind[], setting: WelcomeGiftsSetting): UserMessage {
  const hours = (seconds: number) => Math.round((seconds / SECONDS.hour) * 10) / 10;
  const zh: string[] = [];
  const en: string[] = [];
  if (granted.includes("new_user")) {
    zh.push(`${hours(setting.newUserSeconds)} 小时转写时长卡`);
    en.push(`a ${hours(setting.newUserSeconds)}-hour transcription card`);
  }
  if (granted.includes("invite")) {
    zh.push(`${hours(setting.inviteSeconds)} 小时邀请礼`);
    en.push(`a ${hours(setting.inviteSeconds)}-hour invitation gift`);
  }
  if (granted.includes("black_card")) {
    zh.push(`${setting.blackCardDays} 天会员`);
    en.push(`${setting.blackCardDays} days of membership`);
  }
  const intro = "欢迎加入悦录！上传或录制音视频即可转成文字，还可以文字转语音、管理你的声音。";
  const introEn =
    "Welcome to Yuelu! Upload or record audio and video to turn it into text, turn text into speech and manage your voices.";
  return {
    title: "欢迎使用悦录",
    text: zh.length > 0 ? `${intro}已为你发放新人礼包：${zh.join("、")}。` : intro,
    titleEn: "Welcome to Yuelu",
    textEn: en.length > 0 ? `${introEn} Your welcome gifts: ${en.join(", ")}.` : introEn,
    sourceRef: "welcome",
  };
}
