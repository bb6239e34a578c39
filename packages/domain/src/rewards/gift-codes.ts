import { randomInt } from "node:crypto";
import {
  GIFT_CODE_LIMITS,
  type GiftRedeemResult,
  isMembershipRewardType,
  RewardType,
  StatusCode,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { sendUserMessage } from "../messages/send.ts";
import { businessDay, SECONDS } from "../time.ts";
import { type Tx, transact } from "../transaction.ts";
import { grantBeans } from "../wallet/ledger.ts";
import { extendMembership } from "../wallet/membership.ts";
import { CARD_VALIDITY, grantTimeCard } from "../wallet/time-cards.ts";
import { advanceTasks } from "./task-progress.ts";
import { rewardText } from "./tasks.ts";

/**
 * Gift codes (spec §4 Gift codes, §5): 8 letters and digits, case-insensitive (stored upper case).
 * rewardType 101–199 grants rewardNumber days of membership; 0 beans; 1 a time card of rewardNumber
 * seconds (valid 1 year). Each code has a usage limit and maybe an expiry; a user uses a code once.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "config" | "events">;

export const GIFT_LEDGER_REASON = "gift_code";

/**
 * Redeems a code for the user, exactly once per user and never beyond the code's limit however many
 * redeem at once: the redemption row (unique per code and user) and the conditional count update
 * (redeemedCount < maxRedemptions) commit with the reward, or not at all. Unknown or expired → 60004;
 * used up → 60005; already redeemed by this user → 60009.
 */
export async function redeemGiftCode(ctx: Ctx, userId: number, packCode: string): Promise<GiftRedeemResult> {
  const code = packCode.trim().toUpperCase();
  const now = ctx.clock.now();
  return transact(ctx, async (tx, after) => {
    const gift = await tx.giftCode.findUnique({ where: { packCode: code } });
    if (!gift || gift.disabledAt || (gift.expiresAt && gift.expiresAt <= now)) {
      throw new AppError(StatusCode.GiftCodeInvalid);
    }
    const mine = await tx.giftRedemption.createMany({ data: [{ giftCodeId: gift.id, userId }], skipDuplicates: true });
    if (mine.count === 0) throw new AppError(StatusCode.GiftCodeRedeemed);
    const counted = await tx.$executeRaw`
      UPDATE gift_codes SET "redeemedCount" = "redeemedCount" + 1
      WHERE id = ${gift.id}::int AND "redeemedCount" < "maxRedemptions" AND "disabledAt" IS NULL`;
    if (counted === 0) throw new AppError(StatusCode.GiftCodeUsed); // rolls the redemption back too

    const refId = `code:${gift.id}`;
    let reward: string;
    let rewardEn: string;
    if (isMembershipRewardType(gift.rewardType)) {
      await extendMembership(tx, userId, gift.rewardNumber * SECONDS.day, now);
      reward = `${gift.rewardNumber} 天会员`;
      rewardEn = `${gift.rewardNumber} ${gift.rewardNumber === 1 ? "day" : "days"} of membership`;
    } else if (gift.rewardType === RewardType.Beans) {
      await grantBeans(tx, userId, gift.rewardNumber, GIFT_LEDGER_REASON, refId);
      reward = rewardText(RewardType.Beans, gift.rewardNumber, "zh");
      rewardEn = rewardText(RewardType.Beans, gift.rewardNumber, "en");
    } else {
      await grantTimeCard(tx, {
        userId,
        seconds: gift.rewardNumber,
        validSeconds: CARD_VALIDITY.gift,
        source: "gift",
        refId,
        now,
      });
      reward = rewardText(RewardType.TimeCard, gift.rewardNumber, "zh");
      rewardEn = rewardText(RewardType.TimeCard, gift.rewardNumber, "en");
    }
    await advanceTasks(tx, userId, "gift_code", 1, businessDay(now, ctx.config.BUSINESS_TZ));
    await sendUserMessage(tx, userId, {
      title: "兑换成功",
      text: `兑换码已使用，${reward}已到账。`,
      titleEn: "Gift code redeemed",
      textEn: `Your gift code was redeemed: ${rewardEn} added.`,
      sourceRef: `gift:${gift.id}`,
    });
    after.publish({ type: "user.changed", userId });
    return { rewardType: gift.rewardType, rewardNumber: gift.rewardNumber };
  });
}

/** Letters and digits a person can read back without confusion (no 0/O, 1/I/L). */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

function newCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(0, ALPHABET.length)];
  return code;
}

export interface GiftBatch {
  count: number;
  rewardType: number;
  rewardNumber: number;
  /** redemptions per code (users) */
  maxRedemptions: number;
  expiresAt?: Date;
  batch: string;
}

/**
 * Creates `count` new random codes (the operators' CLI prints them); answers them. Every figure is
 * checked against GIFT_CODE_LIMITS here, where codes are made, so no redemption can overflow later
 * (10002 naming the figure). Takes a transaction too (the console's audited batch commits with its row).
 */
export async function createGiftCodes(ctx: { db: Db | Tx }, spec: GiftBatch): Promise<string[]> {
  if (!(spec.rewardType === 0 || spec.rewardType === 1 || isMembershipRewardType(spec.rewardType))) {
    throw AppError.invalid("rewardType", "0 (beans), 1 (a time card, seconds) or 101–199 (membership days)");
  }
  const [field, max] =
    spec.rewardType === 0
      ? ["beans", GIFT_CODE_LIMITS.beans]
      : spec.rewardType === 1
        ? ["card seconds", GIFT_CODE_LIMITS.cardSeconds]
        : ["member days", GIFT_CODE_LIMITS.memberDays];
  const within = (name: string, value: number, most: number) => {
    if (!Number.isSafeInteger(value) || value < 1 || value > most) {
      throw AppError.invalid(name, `from 1 to ${most.toLocaleString("en")}`);
    }
  };
  within(field, spec.rewardNumber, max);
  within("max uses", spec.maxRedemptions, GIFT_CODE_LIMITS.maxRedemptions);
  within("count", spec.count, GIFT_CODE_LIMITS.count);
  const codes = new Set<string>();
  while (codes.size < spec.count) codes.add(newCode());
  const { count } = await ctx.db.giftCode.createMany({
    data: [...codes].map((packCode) => ({
      packCode,
      rewardType: spec.rewardType,
      rewardNumber: spec.rewardNumber,
      maxRedemptions: spec.maxRedemptions,
      expiresAt: spec.expiresAt ?? null,
      batch: spec.batch,
    })),
    skipDuplicates: true,
  });
  if (count !== codes.size) throw new Error("a code collided with an existing one: run it again");
  return [...codes];
}
