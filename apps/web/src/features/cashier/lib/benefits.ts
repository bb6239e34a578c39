/**
 * What membership gives, as this product actually does it (the cashier's 8 privileges and /vip's
 * comparison). Member-only: the daily transcription cap (DAILY_QUOTA_SECONDS vs
 * DAILY_QUOTA_SECONDS_MEMBER, 10 h and 24 h by default — storage info timeLimitToday), the
 * double check-in reward, the caption permission (storage info auth = 1) and more daily
 * text-to-speech characters (promised for when text to speech opens). The other four every
 * account has: the comparison marks them available in both columns and the cashier says
 * 'included', never 'member only'.
 */
export const FREE_DAILY_HOURS = 10;
export const MEMBER_DAILY_HOURS = 24;

export type BenefitId = "dailyCap" | "checkin" | "caption" | "tts" | "speakers" | "export" | "editing" | "storage";

export interface Benefit {
  id: BenefitId;
  icon: string;
  /**
   * How /vip's comparison shows it: `values` — a free and a member value (benefits.<id>.free /
   * .member); `memberOnly` — members only; `both` — every account has it (membership includes it).
   */
  compare: "values" | "memberOnly" | "both";
}

export const BENEFITS: readonly Benefit[] = [
  { id: "dailyCap", icon: "◷", compare: "values" },
  { id: "checkin", icon: "✦", compare: "values" },
  { id: "caption", icon: "❝", compare: "memberOnly" },
  { id: "tts", icon: "♪", compare: "values" },
  { id: "speakers", icon: "☺", compare: "both" },
  { id: "export", icon: "⇩", compare: "both" },
  { id: "editing", icon: "✎", compare: "both" },
  { id: "storage", icon: "☁", compare: "both" },
];

/** Placeholders of the benefit texts (the daily caps in hours). */
export const benefitValues = { free: FREE_DAILY_HOURS, member: MEMBER_DAILY_HOURS };
