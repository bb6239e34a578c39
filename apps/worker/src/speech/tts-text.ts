import {
  EN_MONTHS,
  enDigits,
  enInteger,
  enNumber,
  enOrdinal,
  enYear,
  zhDigits,
  zhInteger,
  zhNumber,
} from "./spoken-numbers.ts";

/**
 * Text prepared for a speech engine (docs/tts.md "What the worker does"): numbers, dates, times,
 * percentages, money and units written out as they are spoken in the voice's language, then the text
 * cut into sentences (Chinese and English punctuation) with the pause that follows each. Engines
 * then speak short pieces, which keeps their memory and latency small and lets the pipeline space the
 * sentences evenly.
 */

export type SpeechLanguage = "zh" | "en";

export interface SpeechPiece {
  /** what the engine says (already normalised) */
  text: string;
  /** silence after it (ms) */
  pauseMs: number;
}

/** Pauses after a piece, by what ended it (ms). */
export const PAUSES = { comma: 180, clause: 300, sentence: 420, question: 480, paragraph: 700 } as const;

/** Pieces longer than this (characters) are cut again at commas, then at spaces. */
const MAX_PIECE = { zh: 60, en: 220 } as const;

const NUM = String.raw`\d+(?:\.\d+)?`;

// ───────────────────────────── shared clean-up ─────────────────────────────

/** Full-width digits, letters and signs → ASCII; thousands separators dropped ('1,234' → '1234'). */
function canonical(text: string): string {
  return text
    .replace(/[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/％/g, "%")
    .replace(/(?<=\d)：(?=\d)/g, ":")
    .replace(/(?<=\d)．(?=\d)/g, ".")
    .replace(/\u00a0|\u3000/g, " ")
    .replace(
      /(?<![\d.,])(\d{1,3})((?:,\d{3})+)(?![\d,])/g,
      (_m, head: string, rest: string) => head + rest.replaceAll(",", ""),
    );
}

// ───────────────────────────── Mandarin ─────────────────────────────

const ZH_UNITS: [RegExp, string][] = [
  [/km\/h/i, "公里每小时"],
  [/m\/s/, "米每秒"],
  [/km/i, "公里"],
  [/kg/i, "千克"],
  [/cm/i, "厘米"],
  [/mm/i, "毫米"],
  [/ml/i, "毫升"],
  [/mg/i, "毫克"],
  [/TB/i, "TB"],
  [/GB/i, "GB"],
  [/MB/i, "MB"],
  [/KB/i, "KB"],
  [/℃|°C/, "摄氏度"],
  [/°F/, "华氏度"],
  [/°/, "度"],
  [/m(?![a-z])/, "米"],
  [/g(?![a-z])/, "克"],
  [/L(?![a-z])/, "升"],
];
const ZH_UNIT_PATTERN = String.raw`km\/h|m\/s|km|kg|cm|mm|ml|mg|TB|GB|MB|KB|℃|°C|°F|°|m(?![a-zA-Z])|g(?![a-zA-Z])|L(?![a-zA-Z])`;
/** Measure words after which a lone 2 is read 两 (两个, 两次). */
const ZH_LIANG = "个位只条件次本张台辆天周种岁倍人家份杯瓶";

function zhUnit(unit: string): string {
  for (const [pattern, word] of ZH_UNITS) if (pattern.test(unit)) return word;
  return unit;
}

/** Chinese text with numbers, dates, times, percentages, money and units in words. */
export function normaliseChinese(input: string): string {
  let text = canonical(input);
  // dates: 2024年3月5日, 2024-03-05, 2024/3/5, 2024.3.5
  text = text.replace(
    /(?<!\d)(\d{4})\s*(?:年|-|\/|\.)\s*(\d{1,2})\s*(?:月|-|\/|\.)\s*(\d{1,2})(?:\s*([日号]))?(?![\d.])/g,
    (_m, y: string, mo: string, d: string, suffix?: string) =>
      `${zhDigits(y)}年${zhInteger(mo)}月${zhInteger(d)}${suffix ?? "日"}`,
  );
  text = text.replace(/(?<!\d)(\d{4})\s*年/g, (_m, y: string) => `${zhDigits(y)}年`);
  text = text.replace(/(?<![\d.])(\d{1,2})\s*月\s*(\d{1,2})\s*([日号])/g, (_m, mo: string, d: string, s: string) => {
    return `${zhInteger(mo)}月${zhInteger(d)}${s}`;
  });
  // times: 10:30, 10:05, 10:00, 9:05:30
  text = text.replace(/(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])/g, (_m, h: string, mi: string, s?: string) => {
    const hours = `${zhInteger(h, { liang: true })}点`;
    const minutes = Number(mi) === 0 ? (s ? "零分" : "整") : `${Number(mi) < 10 ? "零" : ""}${zhInteger(mi)}分`;
    return `${hours}${minutes}${s ? `${zhInteger(s)}秒` : ""}`;
  });
  // a minus sign that is not a range's or a word's hyphen ("-5℃", "气温-3度")
  text = text.replace(/(?<![\w.]|\d\s*)-(?=\d)/g, "负");
  // percentages, money
  text = text.replace(new RegExp(`(${NUM})\\s*%`, "g"), (_m, n: string) => `百分之${zhNumber(n)}`);
  const amount = (n: string) => zhNumber(n.includes(".") ? n.replace(/\.?0+$/, "") : n);
  text = text.replace(new RegExp(`[¥￥]\\s*(${NUM})`, "g"), (_m, n: string) => `${amount(n)}元`);
  text = text.replace(new RegExp(`\\$\\s*(${NUM})`, "g"), (_m, n: string) => `${amount(n)}美元`);
  text = text.replace(new RegExp(`€\\s*(${NUM})`, "g"), (_m, n: string) => `${amount(n)}欧元`);
  text = text.replace(new RegExp(`£\\s*(${NUM})`, "g"), (_m, n: string) => `${amount(n)}英镑`);
  // ranges (3-5, 3~5 km), then units after a number
  text = text.replace(
    new RegExp(`(?<![\\d.])(${NUM})\\s*[-~～–—]\\s*(${NUM})(?![\\d.])\\s*(${ZH_UNIT_PATTERN})?`, "g"),
    (_m, a: string, b: string, unit?: string) => `${zhNumber(a)}到${zhNumber(b)}${unit ? zhUnit(unit) : ""}`,
  );
  text = text.replace(
    new RegExp(`(${NUM})\\s*(${ZH_UNIT_PATTERN})`, "g"),
    (_m, n: string, unit: string) => `${zhNumber(n)}${zhUnit(unit)}`,
  );
  // every other number
  text = text.replace(new RegExp(`(?<![\\d.])(${NUM})(?![\\d.])`, "g"), (match: string, _n: string, offset: number) => {
    const next = text[offset + match.length] ?? "";
    if (/^\d+$/.test(match) && (match.length >= 9 || (match.length > 1 && match.startsWith("0"))))
      return zhDigits(match);
    return zhNumber(match, { liang: match === "2" && ZH_LIANG.includes(next) });
  });
  return text.replace(/&/g, "和").replace(/\+/g, "加");
}

// ───────────────────────────── English ─────────────────────────────

const EN_UNITS: Record<string, string> = {
  "km/h": "kilometers per hour",
  mph: "miles per hour",
  "m/s": "meters per second",
  km: "kilometers",
  kg: "kilograms",
  cm: "centimeters",
  mm: "millimeters",
  ml: "milliliters",
  mg: "milligrams",
  tb: "terabytes",
  gb: "gigabytes",
  mb: "megabytes",
  kb: "kilobytes",
  "℃": "degrees Celsius",
  "°c": "degrees Celsius",
  "°f": "degrees Fahrenheit",
  "°": "degrees",
  m: "meters",
  g: "grams",
  l: "liters",
};
const EN_UNIT_PATTERN = String.raw`km\/h|mph|m\/s|km|kg|cm|mm|ml|mg|TB|GB|MB|KB|℃|°C|°F|°|m(?![a-zA-Z])|g(?![a-zA-Z])|L(?![a-zA-Z])`;
const MONTH_PATTERN = `(${EN_MONTHS.join("|")}|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\\.?`;

function enMonth(name: string): string {
  const key = name.replace(/\.$/, "").slice(0, 3).toLowerCase();
  return EN_MONTHS.find((m) => m.slice(0, 3).toLowerCase() === key) ?? name;
}

function enDate(year: string, month: number, day: string): string {
  const name = EN_MONTHS[month - 1];
  if (!name || Number(day) < 1 || Number(day) > 31)
    return `${enYear(year)} ${enInteger(String(month))} ${enInteger(day)}`;
  return `${name} ${enOrdinal(day)}, ${enYear(year)}`;
}

function money(amount: string, unit: string, units: string, cent: string, cents: string): string {
  const [whole = "0", frac] = amount.split(".");
  const w = `${enInteger(whole)} ${whole === "1" ? unit : units}`;
  if (!frac || Number(frac) === 0) return w;
  const c = frac.padEnd(2, "0").slice(0, 2);
  return `${w} and ${enInteger(c)} ${c === "01" ? cent : cents}`;
}

/** English text with numbers, dates, times, percentages, money and units in words. */
export function normaliseEnglish(input: string): string {
  let text = canonical(input);
  // dates: 2024-03-05, 2024/3/5, 2024年3月5日, 3/5/2024 (US), March 5, 2024, March 5th
  text = text.replace(
    /(?<!\d)(\d{4})\s*(?:-|\/|年)\s*(\d{1,2})\s*(?:-|\/|月)\s*(\d{1,2})(?:\s*[日号])?(?![\d.])/g,
    (_m, y: string, mo: string, d: string) => enDate(y, Number(mo), d),
  );
  text = text.replace(/(?<![\d/])(\d{1,2})\/(\d{1,2})\/(\d{4})(?![\d/])/g, (_m, mo: string, d: string, y: string) =>
    enDate(y, Number(mo), d),
  );
  text = text.replace(
    new RegExp(`\\b${MONTH_PATTERN}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,\\s*|\\s+)(\\d{4})\\b`, "gi"),
    (_m, month: string, d: string, y: string) => `${enMonth(month)} ${enOrdinal(d)}, ${enYear(y)}`,
  );
  text = text.replace(
    new RegExp(`\\b${MONTH_PATTERN}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, "gi"),
    (_m, month: string, d: string) => `${enMonth(month)} ${enOrdinal(d)}`,
  );
  text = text.replace(/(?<!\d)(\d{4})\s*年/g, (_m, y: string) => `${enYear(y)}`);
  // times: 10:30 → ten thirty, 10:05 → ten oh five, 10:00 → ten o'clock; am / pm
  text = text.replace(
    /(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])(\s*([ap])\.?\s?m\.?(?![a-z]))?/gi,
    (_m, h: string, mi: string, s: string | undefined, _ampm: string | undefined, ap: string | undefined) => {
      const hours = enInteger(h);
      const m = Number(mi);
      let out =
        m === 0 ? (ap ? hours : `${hours} o'clock`) : `${hours} ${m < 10 ? `oh ${enInteger(mi)}` : enInteger(mi)}`;
      if (s && Number(s)) out += ` and ${enInteger(s)} seconds`;
      if (ap) out += ap.toLowerCase() === "a" ? " a m" : " p m";
      return out;
    },
  );
  // a minus sign that is not a range's or a word's hyphen
  text = text.replace(/(?<![\w.]|\d\s*)-(?=\d)/g, "minus ");
  // money, percentages, ordinals
  text = text.replace(new RegExp(`\\$\\s*(${NUM})`, "g"), (_m, n: string) =>
    money(n, "dollar", "dollars", "cent", "cents"),
  );
  text = text.replace(new RegExp(`£\\s*(${NUM})`, "g"), (_m, n: string) =>
    money(n, "pound", "pounds", "penny", "pence"),
  );
  text = text.replace(new RegExp(`€\\s*(${NUM})`, "g"), (_m, n: string) => money(n, "euro", "euros", "cent", "cents"));
  text = text.replace(new RegExp(`[¥￥]\\s*(${NUM})`, "g"), (_m, n: string) => `${enNumber(n)} yuan`);
  text = text.replace(new RegExp(`(${NUM})\\s*%`, "g"), (_m, n: string) => `${enNumber(n)} percent`);
  text = text.replace(/\b(\d+)(st|nd|rd|th)\b/gi, (_m, n: string) => enOrdinal(n));
  // ranges (3-5, 3~5 km), units after a number, years after 'in', 'since'…
  const unitWord = (unit: string, n: string) => {
    const word = EN_UNITS[unit.toLowerCase()] ?? unit;
    return n === "1" ? word.replace(/s( |$)/, "$1") : word;
  };
  text = text.replace(
    new RegExp(`(?<![\\d.])(${NUM})\\s*[-~–—]\\s*(${NUM})(?![\\d.])(\\s*(?:${EN_UNIT_PATTERN}))?`, "g"),
    (_m, a: string, b: string, unit?: string) =>
      `${enNumber(a)} to ${enNumber(b)}${unit ? ` ${unitWord(unit.trim(), b)}` : ""}`,
  );
  text = text.replace(
    new RegExp(`(${NUM})\\s*(${EN_UNIT_PATTERN})`, "g"),
    (_m, n: string, unit: string) => `${enNumber(n)} ${unitWord(unit, n)}`,
  );
  text = text.replace(
    /\b(in|since|by|from|until|till|of|year|before|after|during)\s+(1[1-9]\d{2}|20\d{2})\b/gi,
    (_m, word: string, y: string) => `${word} ${enYear(y)}`,
  );
  text = text.replace(new RegExp(`(?<![\\d.])(${NUM})(?![\\d.])`, "g"), (match: string) => {
    if (/^\d+$/.test(match) && (match.length >= 9 || (match.length > 1 && match.startsWith("0"))))
      return enDigits(match);
    return enNumber(match);
  });
  return text.replace(/\s&\s/g, " and ").replace(/[ \t]+/g, " ");
}

// ───────────────────────────── sentences ─────────────────────────────

/** Words whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "st",
  "sr",
  "jr",
  "vs",
  "etc",
  "e.g",
  "i.e",
  "no",
  "fig",
  "mt",
  "inc",
  "ltd",
  "co",
  "u.s",
  "u.k",
]);

const CLOSERS = `"'”’」』）)】》]`;

interface Cut {
  text: string;
  end: "comma" | "clause" | "sentence" | "question";
}

/** One paragraph cut at its sentence ends (。！？!?；; and a full stop followed by a space or the end). */
function sentencesOf(paragraph: string): Cut[] {
  const out: Cut[] = [];
  let start = 0;
  const push = (end: number, kind: Cut["end"]) => {
    const text = paragraph.slice(start, end).trim();
    if (text) out.push({ text, end: kind });
    start = end;
  };
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i]!;
    let kind: Cut["end"] | undefined;
    if ("。！？!?…".includes(c)) kind = c === "？" || c === "?" ? "question" : "sentence";
    else if ("；;".includes(c)) kind = "clause";
    else if (c === ".") {
      const next = paragraph[i + 1];
      if (next !== undefined && !/[\s"'”’」』）)】》\]]/.test(next)) continue;
      const word = /([A-Za-z.]+)$/.exec(paragraph.slice(start, i))?.[1]?.toLowerCase() ?? "";
      if (ABBREVIATIONS.has(word) || /^[a-z]$/.test(word)) continue;
      kind = "sentence";
    }
    if (!kind) continue;
    // keep runs of terminators and closing quotes with the sentence ('！？', '。」', '..."')
    let end = i + 1;
    while (end < paragraph.length && ("。！？!?…．.".includes(paragraph[end]!) || CLOSERS.includes(paragraph[end]!)))
      end++;
    push(end, kind);
    i = end - 1;
  }
  push(paragraph.length, "sentence");
  return out;
}

/** A piece longer than the engine's comfortable size, cut at commas, then at spaces (or anywhere). */
function shorten(cut: Cut, max: number): Cut[] {
  if ([...cut.text].length <= max) return [cut];
  const parts = cut.text.split(/(?<=[，,、：:—])/).filter((p) => p.trim());
  const out: Cut[] = [];
  let current = "";
  for (const part of parts) {
    if (current && [...(current + part)].length > max) {
      out.push({ text: current.trim(), end: "comma" });
      current = "";
    }
    current += part;
  }
  if (current.trim()) out.push({ text: current.trim(), end: cut.end });
  return out.flatMap((c) => {
    if ([...c.text].length <= max) return [c];
    // no comma helps: cut at the last space before the limit, or at the limit itself
    const pieces: Cut[] = [];
    let rest = c.text;
    while ([...rest].length > max) {
      const head = [...rest].slice(0, max).join("");
      const space = head.lastIndexOf(" ");
      const at = space > max / 2 ? space : head.length;
      pieces.push({ text: rest.slice(0, at).trim(), end: "comma" });
      rest = rest.slice(at).trim();
    }
    if (rest) pieces.push({ text: rest, end: c.end });
    return pieces;
  });
}

/** Whether a piece holds anything an engine can say (letters, Han characters or digits). */
export function isSpeakable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/**
 * The text as pieces to speak: normalised for `language`, one per sentence (long ones cut at commas),
 * each with its pause. Pieces with nothing to say are dropped (their pause is kept).
 */
export function speechPieces(text: string, language: SpeechLanguage): SpeechPiece[] {
  const normalised = language === "zh" ? normaliseChinese(text) : normaliseEnglish(text);
  const paragraphs = normalised
    .replace(/\r\n?/g, "\n")
    .split(/\n+/)
    .map((p) => p.replace(/[ \t]+/g, " ").trim())
    .filter(Boolean);
  const pieces: SpeechPiece[] = [];
  for (const paragraph of paragraphs) {
    const cuts = sentencesOf(paragraph).flatMap((c) => shorten(c, MAX_PIECE[language]));
    cuts.forEach((cut, i) => {
      const pauseMs = i === cuts.length - 1 ? PAUSES.paragraph : PAUSES[cut.end];
      if (isSpeakable(cut.text)) pieces.push({ text: cut.text, pauseMs });
      else if (pieces.length) pieces[pieces.length - 1]!.pauseMs = Math.max(pieces.at(-1)!.pauseMs, pauseMs);
    });
  }
  if (pieces.length) pieces[pieces.length - 1]!.pauseMs = 0;
  return pieces;
}
