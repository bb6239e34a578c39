/**
 * Numbers as they are read aloud, in Mandarin and in English: cardinals, decimals, digit strings,
 * ordinals and years. Used by the text-to-speech normaliser (tts-text.ts), so every engine reads
 * '2024年3月5日', '3.5%' and '10:30' the same way.
 */

const ZH_DIGITS = "零一二三四五六七八九";
const ZH_SMALL = ["", "十", "百", "千"];
const ZH_BIG = ["", "万", "亿", "兆"];

/** A group of 0–9999 in Chinese, without its leading zero ('1005' → 一千零五). */
function zhGroup(n: number): string {
  let out = "";
  let zero = false;
  for (let pos = 3; pos >= 0; pos--) {
    const d = Math.floor(n / 10 ** pos) % 10;
    if (d === 0) {
      if (out) zero = true;
      continue;
    }
    if (zero) out += "零";
    zero = false;
    out += ZH_DIGITS[d]! + ZH_SMALL[pos]!;
  }
  return out;
}

/**
 * A non-negative integer in Chinese (12345 → 一万二千三百四十五; 10 → 十; 100010 → 十万零一十).
 * `liang`: a leading 2 of a count reads 两 (两个, 两千).
 */
export function zhInteger(digits: string, options: { liang?: boolean } = {}): string {
  const clean = digits.replace(/^0+(?=\d)/, "");
  if (clean.length > 16) return zhDigits(clean);
  let n = BigInt(clean);
  if (n === 0n) return "零";
  const groups: number[] = [];
  while (n > 0n) {
    groups.push(Number(n % 10000n));
    n /= 10000n;
  }
  let out = "";
  let needZero = false;
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i]!;
    if (g === 0) {
      needZero = out !== "";
      continue;
    }
    if (out && (needZero || g < 1000)) out += "零";
    needZero = false;
    out += zhGroup(g) + ZH_BIG[i]!;
  }
  // 一十二 → 十二 at the very start
  if (out.startsWith("一十")) out = out.slice(1);
  if (options.liang && (out.startsWith("二千") || out.startsWith("二万") || out.startsWith("二亿") || out === "二")) {
    out = `两${out.slice(1)}`;
  }
  return out;
}

/** Digits one by one (一三八零…): phone numbers, codes, years. */
export function zhDigits(digits: string): string {
  return [...digits].map((d) => ZH_DIGITS[Number(d)] ?? d).join("");
}

/** A decimal number as written ('3.5' → 三点五, '-0.25' → 负零点二五). */
export function zhNumber(text: string, options: { liang?: boolean } = {}): string {
  const negative = text.startsWith("-");
  const [int = "0", frac] = text.replace(/^-/, "").split(".");
  const whole = frac === undefined ? zhInteger(int, options) : zhInteger(int);
  return `${negative ? "负" : ""}${whole}${frac ? `点${zhDigits(frac)}` : ""}`;
}

const EN_ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const EN_SCALES = ["", "thousand", "million", "billion", "trillion"];

function enBelowThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) {
    parts.push(`${EN_ONES[Math.floor(n / 100)]} hundred`);
    n %= 100;
  }
  if (n >= 20) {
    const t = EN_TENS[Math.floor(n / 10)]!;
    parts.push(n % 10 ? `${t}-${EN_ONES[n % 10]}` : t);
  } else if (n > 0) {
    parts.push(EN_ONES[n]!);
  }
  return parts.join(" ");
}

/** A non-negative integer in English words (1234 → one thousand two hundred thirty-four). */
export function enInteger(digits: string): string {
  const clean = digits.replace(/^0+(?=\d)/, "");
  if (clean.length > 15) return enDigits(clean);
  let n = Number(clean);
  if (n === 0) return "zero";
  const parts: string[] = [];
  let scale = 0;
  while (n > 0) {
    const chunk = n % 1000;
    if (chunk) parts.unshift(`${enBelowThousand(chunk)}${EN_SCALES[scale] ? ` ${EN_SCALES[scale]}` : ""}`);
    n = Math.floor(n / 1000);
    scale++;
  }
  return parts.join(" ");
}

/** Digits one by one ("one three eight"). */
export function enDigits(digits: string): string {
  return [...digits].map((d) => EN_ONES[Number(d)] ?? d).join(" ");
}

/** A decimal number as written ('3.14' → three point one four, '-2' → minus two). */
export function enNumber(text: string): string {
  const negative = text.startsWith("-");
  const [int = "0", frac] = text.replace(/^-/, "").split(".");
  return `${negative ? "minus " : ""}${enInteger(int)}${frac ? ` point ${enDigits(frac)}` : ""}`;
}

const EN_ORDINAL_WORDS: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

/** An ordinal in words (1 → first, 21 → twenty-first, 100 → one hundredth). */
export function enOrdinal(digits: string): string {
  const words = enInteger(digits);
  const match = /^(.*?)([a-z]+)$/.exec(words);
  if (!match) return words;
  const [, head, last] = match as unknown as [string, string, string];
  if (EN_ORDINAL_WORDS[last]) return head + EN_ORDINAL_WORDS[last];
  if (last.endsWith("y")) return `${head}${last.slice(0, -1)}ieth`;
  return `${head}${last}th`;
}

/** A year as it is said: 2024 → twenty twenty-four, 2005 → two thousand five, 1900 → nineteen hundred. */
export function enYear(digits: string): string {
  const n = Number(digits);
  if (digits.length !== 4 || n < 1000) return enInteger(digits);
  const high = Math.floor(n / 100);
  const low = n % 100;
  if (n >= 2000 && n < 2010) return enInteger(digits);
  if (low === 0) return `${enInteger(String(high))} hundred`;
  return `${enInteger(String(high))} ${low < 10 ? `oh ${EN_ONES[low]}` : enInteger(String(low))}`;
}

export const EN_MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
