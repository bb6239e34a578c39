import { GIFT_CODE_LENGTH, GIFT_CODE_PATTERN } from "@yuelu/contracts/constants";

/**
 * Spec §5 gift code: empty → 'please fill in the redeem code'; shorter than 8 characters (or not
 * letters and digits) → 'please fill in a correct redeem code'. Checked before any call.
 */
export type GiftCodeProblem = "empty" | "invalid";

export function giftCodeProblem(code: string): GiftCodeProblem | null {
  const value = code.trim();
  if (value === "") return "empty";
  if (value.length < GIFT_CODE_LENGTH || !GIFT_CODE_PATTERN.test(value)) return "invalid";
  return null;
}

/** What the input keeps of what was typed or pasted: no spaces, at most 8 characters, upper case (codes ignore case). */
export function giftCodeInput(raw: string): string {
  return raw.replace(/\s+/g, "").slice(0, GIFT_CODE_LENGTH).toUpperCase();
}
