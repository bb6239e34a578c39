import type { AdminGiftKind } from "@yuelu/contracts";
import { GIFT_CODE_LIMITS } from "@yuelu/contracts/constants";

export const GIFT_KINDS: AdminGiftKind[] = ["beans", "cardMinutes", "memberDays"];

/** The most one code may grant of each kind (contracts' ADMIN_GIFT_REWARD_MAX, in the kind's unit). */
export const GIFT_REWARD_MAX: Record<AdminGiftKind, number> = {
  beans: GIFT_CODE_LIMITS.beans,
  cardMinutes: GIFT_CODE_LIMITS.cardSeconds / 60,
  memberDays: GIFT_CODE_LIMITS.memberDays,
};

/** Batch names: letters (any script), digits, - and _, 60 at most (contracts' zGiftBatchName). */
export const BATCH_NAME = /^[\p{L}\p{N}_-]{1,60}$/u;

/** A batch name to start the form with: 'gift-20261125-2215' (the operator may change it). */
export function suggestBatchName(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `gift-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
}
