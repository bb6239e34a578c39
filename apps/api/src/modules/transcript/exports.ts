import { type ActionItem, type Lang, type Segment, withoutUnsafe, wordSpans } from "@yuelu/contracts";
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from "docx";

/** Transcript files: txt, docx (library `docx`), SubRip and WebVTT; file names for Content-Disposition. */

export interface ExportOptions {
  withSpeaker: boolean;
  withTime: boolean;
}

const pad = (n: number, width = 2) => String(Math.floor(n)).padStart(width, "0");

/** HH:MM:SS of a time in ms (hours grow past 99 rather than wrap). */
export function clock(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return `${pad(s / 3600)}:${pad((s % 3600) / 60)}:${pad(s % 60)}`;
}

/** HH:MM:SS<sep>mmm: ',' for SubRip, '.' for WebVTT. */
export function cueTime(ms: number, separator: "," | "."): string {
  const t = Math.max(0, Math.round(ms));
  return `${clock(t)}${separator}${pad(t % 1000, 3)}`;
}

/** Characters XML 1.0 cannot carry (docx) and lone surrogates are dropped. */
export function xmlSafe(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
}

/** Text on one line for a subtitle cue: inner line breaks and blank lines would end the cue. */
function cueText(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

/**
 * A cue's times: the segment's, narrowed to its words' measured times where it has them (issue 45: the
 * first word's start, the last word's end — without the silence the speech detection pads segments
 * with). A cue must end after it starts: a segment without a real end shows for a second.
 */
function cueStart(s: Segment): number {
  const first = s.words?.[0]?.startTime;
  return first !== undefined && first > s.startTime && first < cueEndOfSegment(s) ? first : s.startTime;
}

function cueEndOfSegment(s: Segment): number {
  return s.endTime > s.startTime ? s.endTime : s.startTime + 1000;
}

function cueEnd(s: Segment): number {
  const end = cueEndOfSegment(s);
  const last = s.words?.[s.words.length - 1]?.endTime;
  return last !== undefined && last > cueStart(s) && last < end ? last : end;
}

/**
 * Plain text: per segment a header line "speaker  HH:MM:SS" (either part as asked), then the text,
 * segments separated by a blank line; with neither option, one segment per line. To-dos, when there
 * are any, follow the transcript under their heading (docs/notes.md "Exports").
 */
export function toTxt(
  segments: Segment[],
  options: ExportOptions,
  todos: { items: ActionItem[]; lang: Lang } = { items: [], lang: "zh" },
): string {
  const blocks = segments.map((s) => {
    const header = [options.withSpeaker ? s.spkName : "", options.withTime ? clock(s.startTime) : ""]
      .filter(Boolean)
      .join("  ");
    return header ? `${header}\n${s.text}` : s.text;
  });
  const separator = options.withSpeaker || options.withTime ? "\n\n" : "\n";
  const text = blocks.length ? `${blocks.join(separator)}\n` : "";
  if (todos.items.length === 0) return text;
  const list = todos.items.map((item) => `- ${todoLine(item, todos.lang)}`).join("\n");
  return `${text}${text ? "\n" : ""}${LABELS[todos.lang].todos}\n${list}\n`;
}

/** One to-do as a line: its text, then who, by when and where in the recording, as known. */
export function todoLine(item: ActionItem, lang: Lang): string {
  const facts = [item.owner ?? "", item.due ?? "", clock(item.startTime)].filter(Boolean).join(" · ");
  return lang === "zh" ? `${item.text}（${facts}）` : `${item.text} (${facts})`;
}

/**
 * What a cue says: the segment's line, or with a translation (docs/notes.md "Exports") the translated line,
 * or (bilingual) the original line and then the translated one. A segment not translated keeps its text.
 */
export interface CueLanguage {
  translated: Map<number, string>;
  bilingual: boolean;
}

function cueLines(s: Segment, index: number, cue: CueLanguage | undefined): string {
  const translated = cue?.translated.get(index);
  if (translated === undefined) return cueText(s.text);
  return cue?.bilingual ? `${cueText(s.text)}\n${cueText(translated)}` : cueText(translated);
}

/** SubRip: numbered cues, "HH:MM:SS,mmm --> HH:MM:SS,mmm", "speaker: text". Empty segments are skipped. */
export function toSrt(segments: Segment[], options: Pick<ExportOptions, "withSpeaker">, cue?: CueLanguage): string {
  const cues = segments
    .map((s, index) => ({ s, text: cueLines(s, index, cue) }))
    .filter(({ s }) => cueText(s.text) !== "")
    .map(({ s, text }, i) => {
      const line = options.withSpeaker && s.spkName ? `${s.spkName}: ${text}` : text;
      return `${i + 1}\n${cueTime(cueStart(s), ",")} --> ${cueTime(cueEnd(s), ",")}\n${line.replace(/-->/g, "->")}\n`;
    });
  return cues.join("\n");
}

const vttEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * WebVTT: "WEBVTT", then cues "HH:MM:SS.mmm --> HH:MM:SS.mmm" whose text carries the speaker as a
 * voice span, `<v speaker>text` (the format's own speaker markup). Text is escaped (&, <, >).
 * `words`: a word-level cue (issue 45) — each word after the first preceded by its start as a WebVTT
 * timestamp tag (`The <00:00:01.250>quick <00:00:01.545>brown`), where the segment has word times
 * and shows its own text (not a translation).
 */
export function toVtt(
  segments: Segment[],
  options: Pick<ExportOptions, "withSpeaker"> & { words?: boolean },
  cue?: CueLanguage,
): string {
  const cues = segments
    .map((s, index) => ({ s, text: cueLines(s, index, cue) }))
    .filter(({ s }) => cueText(s.text) !== "")
    .map(({ s, text: lines }, i) => {
      const timed = options.words && lines === cueText(s.text) ? karaoke(s) : undefined;
      const text = timed ?? vttEscape(lines); // escaping ">" also breaks any "-->"
      const speaker = s.spkName.replace(/[<>&\r\n]/g, "").trim();
      const line = options.withSpeaker && speaker ? `<v ${speaker}>${text}` : text;
      return `${i + 1}\n${cueTime(cueStart(s), ".")} --> ${cueTime(cueEnd(s), ".")}\n${line}\n`;
    });
  return ["WEBVTT\n", ...cues].join("\n");
}

/** A segment's text with a timestamp tag before each word after the first (inside the cue's times), or undefined without word times. */
function karaoke(s: Segment): string | undefined {
  const words = s.words;
  if (!words?.length) return undefined;
  const spans = wordSpans(s.text);
  if (spans.length !== words.length) return undefined;
  const from = cueStart(s);
  const to = cueEnd(s);
  let out = "";
  let at = 0;
  let last = from;
  spans.forEach((span, k) => {
    const between = s.text.slice(at, span.from).replace(/\s+/g, " ");
    const start = Math.min(to, Math.max(last, words[k]!.startTime));
    out += vttEscape(between);
    if (k > 0 && start > from) out += `<${cueTime(start, ".")}>`;
    out += vttEscape(span.text.replace(/\s+/g, " "));
    at = span.to;
    last = start;
  });
  return out.trim();
}

const LABELS = {
  zh: { duration: "时长", updated: "更新时间", summary: "摘要", todos: "待办事项", transcript: "转写内容" },
  en: { duration: "Duration", updated: "Updated", summary: "Summary", todos: "Action items", transcript: "Transcript" },
} as const;

export interface DocMeta {
  title: string;
  timeLen: number;
  updatedAt: Date;
  timeZone: string;
  lang: Lang;
}

/** yyyy-MM-dd HH:mm:ss in the business time zone (spec §9 display form). */
export function formatDateTime(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

function textRuns(text: string, options: { bold?: boolean; color?: string; size?: number } = {}): TextRun[] {
  return xmlSafe(text)
    .split(/\r\n|\r|\n/)
    .map((line, i) => new TextRun({ text: line, break: i > 0 ? 1 : undefined, ...options }));
}

function metaParagraph(meta: DocMeta): Paragraph {
  const l = LABELS[meta.lang];
  const line = `${l.duration} ${clock(meta.timeLen * 1000)} · ${l.updated} ${formatDateTime(meta.updatedAt, meta.timeZone)}`;
  return new Paragraph({ children: textRuns(line, { color: "808080", size: 20 }), spacing: { after: 240 } });
}

function pack(meta: DocMeta, children: Paragraph[]): Promise<Buffer> {
  const doc = new Document({
    creator: "Yuelu",
    title: xmlSafe(meta.title),
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.TITLE, alignment: AlignmentType.LEFT, children: textRuns(meta.title) }),
          metaParagraph(meta),
          ...children,
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** The to-dos under their heading, one paragraph each (nothing when there are none). */
function todoParagraphs(todos: ActionItem[], lang: Lang): Paragraph[] {
  if (todos.length === 0) return [];
  return [
    new Paragraph({ heading: HeadingLevel.HEADING_1, children: textRuns(LABELS[lang].todos) }),
    ...todos.map(
      (item, i) =>
        new Paragraph({
          children: textRuns(`${i + 1}. ${todoLine(item, lang)}`),
          spacing: { after: i === todos.length - 1 ? 240 : 60 },
        }),
    ),
  ];
}

/**
 * The transcript as .docx: title, meta line, the summary (when there is one), the to-dos (when there are
 * any), then per segment a line with its speaker and start time (each when asked for) and its text.
 */
export function toDocx(
  meta: DocMeta,
  segments: Segment[],
  abstracts: string,
  options: ExportOptions = { withSpeaker: true, withTime: true },
  todos: ActionItem[] = [],
): Promise<Buffer> {
  const l = LABELS[meta.lang];
  const children: Paragraph[] = [];
  if (abstracts.trim()) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: textRuns(l.summary) }));
    children.push(new Paragraph({ children: textRuns(abstracts), spacing: { after: 240 } }));
  }
  children.push(...todoParagraphs(todos, meta.lang));
  if (children.length) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: textRuns(l.transcript) }));
  }
  for (const s of segments) {
    const header = [
      ...(options.withSpeaker ? textRuns(s.spkName, { bold: true }) : []),
      ...(options.withTime
        ? textRuns(`${options.withSpeaker ? "  " : ""}${clock(s.startTime)}`, { color: "808080" })
        : []),
    ];
    if (header.length) children.push(new Paragraph({ spacing: { before: 160 }, children: header }));
    children.push(new Paragraph({ children: textRuns(s.text), spacing: header.length ? undefined : { after: 120 } }));
  }
  return pack(meta, children);
}

/** The summary alone as .docx, and the to-dos after it. */
export function summaryDocx(meta: DocMeta, abstracts: string, todos: ActionItem[] = []): Promise<Buffer> {
  const paragraphs = abstracts
    .split(/\r\n|\r|\n/)
    .filter((p) => p.trim() !== "")
    .map((p) => new Paragraph({ children: textRuns(p), spacing: { after: 120 } }));
  return pack(meta, [
    new Paragraph({ heading: HeadingLevel.HEADING_1, children: textRuns(LABELS[meta.lang].summary) }),
    ...paragraphs,
    ...todoParagraphs(todos, meta.lang),
  ]);
}

/** The record's name without its extension, made safe for a file name ('transcript' when nothing is left). */
export function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const safe = [
    ...withoutUnsafe(stem)
      .replace(/[/\\:*?"<>|]/g, "_")
      .trim(),
  ]
    .slice(0, 100)
    .join("");
  return safe || "transcript";
}

export const summarySuffix = (lang: Lang) => (lang === "zh" ? "-摘要" : "-summary");

export const MIME = {
  txt: "text/plain; charset=utf-8",
  srt: "application/x-subrip; charset=utf-8",
  vtt: "text/vtt; charset=utf-8",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
} as const;
