import { z } from "zod";
import { zFlag, zId, zInt } from "../common.ts";
import { GIFT_CODE_LIMITS } from "../limits.ts";
import { adminPageQuery } from "./common.ts";

/**
 * Contracts of /voice_yuelu/admin/gift-codes/... (docs/admin.md, "Gift codes"). A batch is the set of
 * codes created together under one name; the name is the batch's idempotency key: creating the same
 * batch again answers its codes, never a second set.
 */

/** What a code grants: beans, a time card of N minutes, or N days of membership. */
export const ADMIN_GIFT_KINDS = ["beans", "cardMinutes", "memberDays"] as const;
export type AdminGiftKind = (typeof ADMIN_GIFT_KINDS)[number];

/** The largest `reward` of each kind (GIFT_CODE_LIMITS, in the kind's unit). */
export const ADMIN_GIFT_REWARD_MAX: Record<AdminGiftKind, number> = {
  beans: GIFT_CODE_LIMITS.beans,
  cardMinutes: GIFT_CODE_LIMITS.cardSeconds / 60,
  memberDays: GIFT_CODE_LIMITS.memberDays,
};

/** Batch names: letters (any script), digits, - and _; what the CSV's file name is made of. */
export const zGiftBatchName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(60, "at most 60 characters")
  .regex(/^[\p{L}\p{N}_-]+$/u, "letters, digits, - and _ only");

export const ZAdminGiftBatchCreate = z
  .object({
    batch: zGiftBatchName,
    kind: z.enum(ADMIN_GIFT_KINDS),
    /** beans, card minutes or membership days, per code */
    reward: zInt.pipe(z.number().int().min(1)),
    count: zInt.pipe(z.number().int().min(1).max(GIFT_CODE_LIMITS.count)),
    /** how many users may redeem each code */
    maxUses: zInt.pipe(z.number().int().min(1).max(GIFT_CODE_LIMITS.maxRedemptions)).default(1),
    /** ISO instant (or YYYY-MM-DD: the end of that day, Beijing time); absent: no expiry */
    expiresAt: z.string().trim().max(40).optional(),
  })
  .superRefine((v, ctx) => {
    const most = ADMIN_GIFT_REWARD_MAX[v.kind];
    if (v.reward > most) ctx.addIssue({ code: "custom", path: ["reward"], message: `at most ${most}` });
  });
export type AdminGiftBatchCreate = z.infer<typeof ZAdminGiftBatchCreate>;

export const ZAdminGiftBatchCreated = z.object({
  batch: z.string(),
  codes: z.array(z.string()),
  /** false: this batch existed already (the same request again); `codes` are its codes */
  created: z.boolean(),
});
export type AdminGiftBatchCreated = z.infer<typeof ZAdminGiftBatchCreated>;

/** ISO instants travel as strings. */
const zIso = z.string();

export const ZAdminGiftBatch = z.object({
  batch: z.string(),
  /** 0 beans, 1 time card (seconds), 101–199 membership days (of its first code) */
  rewardType: z.number().int(),
  rewardNumber: z.number().int(),
  kind: z.enum(ADMIN_GIFT_KINDS),
  /** in the kind's unit (card: minutes) */
  reward: z.number(),
  codes: z.number().int(),
  /** codes redeemed at least once */
  redeemedCodes: z.number().int(),
  /** redemptions of all its codes */
  uses: z.number().int(),
  /** redemptions its codes allow in all */
  maxUses: z.number().int(),
  disabledCodes: z.number().int(),
  createdAt: zIso,
  expiresAt: zIso.nullable(),
});
export type AdminGiftBatch = z.infer<typeof ZAdminGiftBatch>;

export const ZAdminGiftBatchQuery = adminPageQuery(["createdAt", "batch", "codes", "uses"] as const).extend({
  /** part of the batch name */
  q: z.string().trim().max(60).optional(),
});
export type AdminGiftBatchQuery = z.infer<typeof ZAdminGiftBatchQuery>;

export const ADMIN_GIFT_CODE_STATUSES = ["active", "usedUp", "expired", "disabled"] as const;

/**
 * A code as the console's lists show it: its first and last two characters, the rest starred (`AB****YZ`).
 * The full codes come only with a batch's creation and its export, both in the audit log. Two known
 * characters at each end of an 8-character code leave 31^4 (about 920 000) codes to guess.
 */
export function maskGiftCode(code: string): string {
  if (code.length <= 4) return "*".repeat(code.length);
  return `${code.slice(0, 2)}${"*".repeat(code.length - 4)}${code.slice(-2)}`;
}

export const ZAdminGiftCode = z.object({
  id: z.number().int(),
  /** masked (maskGiftCode): the batch's export has the full codes */
  packCode: z.string(),
  batch: z.string(),
  rewardType: z.number().int(),
  rewardNumber: z.number().int(),
  kind: z.enum(ADMIN_GIFT_KINDS),
  reward: z.number(),
  maxRedemptions: z.number().int(),
  redeemedCount: z.number().int(),
  expiresAt: zIso.nullable(),
  disabledAt: zIso.nullable(),
  createdAt: zIso,
  status: z.enum(ADMIN_GIFT_CODE_STATUSES),
});
export type AdminGiftCode = z.infer<typeof ZAdminGiftCode>;

export const ZAdminGiftCodeQuery = adminPageQuery(["createdAt", "redeemedCount", "packCode"] as const).extend({
  /** exactly this batch ("" included: codes made without one) */
  batch: z.string().trim().max(60).optional(),
  /**
   * the whole code (any case): a code someone holds, to find its batch and who redeemed it. Never its
   * start, which would reveal a masked code one character at a time.
   */
  code: z.string().trim().max(8).optional(),
  status: z.enum(ADMIN_GIFT_CODE_STATUSES).optional(),
});
export type AdminGiftCodeQuery = z.infer<typeof ZAdminGiftCodeQuery>;

export const ZAdminGiftCodeParams = z.object({ id: zId });

export const ZAdminGiftRedemption = z.object({
  userId: z.number().int(),
  phone: z.string(),
  nickName: z.string(),
  redeemedAt: zIso,
});
export type AdminGiftRedemption = z.infer<typeof ZAdminGiftRedemption>;
export const ZAdminGiftRedemptionQuery = adminPageQuery(["redeemedAt"] as const);

/** Disable (or enable again: `disabled: false`) one code or a whole batch; a disabled code answers 60004. */
export const ZAdminGiftCodeDisable = z.object({
  disabled: zFlag.default(true),
  reason: z.string().trim().max(500).default(""),
});
export const ZAdminGiftBatchDisable = ZAdminGiftCodeDisable.extend({ batch: zGiftBatchName });
export const ZAdminGiftDisabled = z.object({
  /** codes whose state changed */
  changed: z.number().int(),
});

/** CSV export of one batch. */
export const ZAdminGiftExportQuery = z.object({ batch: zGiftBatchName });
