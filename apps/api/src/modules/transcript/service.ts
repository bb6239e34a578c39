import {
  type AudioNotes,
  isValidSpeakerName,
  type Lang,
  localSpeakerName,
  MAX_HOT_WORDS,
  NOISE_COLOURS,
  type Segment,
  SPEAKER_NAME_MAX,
  StatusCode,
  toEpochSeconds,
  type ZEditableSegment,
} from "@yuelu/contracts";
import type { Db, Prisma } from "@yuelu/db";
import { AppError, reindexRecord, segmentsOf, TX_OPTIONS, type Tx } from "@yuelu/domain";
import type { z } from "zod";

/** Transcripts of the user's own records (docs/records-api.md "Transcript"). */

export interface OwnedTranscript {
  fileId: number;
  fileName: string;
  timeLen: number;
  language: string;
  abstracts: string;
  updatedAt: Date;
  segments: Segment[];
  /** what the speech front end did (null before issue 29) */
  audio: AudioNotes | null;
}

const notFound = () => new AppError(StatusCode.RecordNotFound);

/** The worker's stored front-end report (worker/audio/front-end.ts FrontEndReport) as AudioNotes; null when absent. */
export function audioNotesOf(stored: unknown): AudioNotes | null {
  if (typeof stored !== "object" || stored === null) return null;
  const r = stored as Record<string, unknown>;
  const facts = (typeof r.facts === "object" && r.facts !== null ? r.facts : {}) as Record<string, unknown>;
  const number = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const noise = NOISE_COLOURS.find((n) => n === r.noise);
  return {
    denoised: r.denoised === true,
    ...(noise ? { noise } : {}),
    dereverberated: r.dereverberated === true,
    narrowBand: r.narrowBand === true,
    gainDb: number(r.gainDb),
    snrDb: number(facts.snrDb),
    bandwidthHz: Math.round(number(facts.bandwidthHz)),
    rt60Ms: Math.round(number(facts.rt60Ms)),
  };
}

/** The caller's record (not in the bin) and its transcript; otherwise 30001. */
export async function ownedTranscript(db: Db | Tx, userId: number, fileId: number): Promise<OwnedTranscript> {
  const record = await db.audioRecord.findFirst({
    where: { fileId, userId, deletedAt: null },
    select: { fileId: true, fileName: true, timeLen: true, transcript: true },
  });
  if (!record?.transcript) throw notFound();
  const t = record.transcript;
  return {
    fileId: record.fileId,
    fileName: record.fileName,
    timeLen: record.timeLen,
    language: t.language,
    abstracts: t.abstracts,
    updatedAt: t.updatedAt,
    segments: segmentsOf(t.asrResult),
    audio: audioNotesOf(t.audioReport),
  };
}

/**
 * The caller's transcript without word timings, for get_text: PostgreSQL drops the `words` of each
 * segment, so a 5-hour transcript crosses the wire as ~0.7 MB instead of ~9 MB and only that is
 * parsed (the stored row keeps its words: exports and edits use them). Otherwise 30001.
 */
export async function ownedTranscriptText(db: Db, userId: number, fileId: number): Promise<OwnedTranscript> {
  const [row] = await db.$queryRaw<
    {
      fileId: number;
      fileName: string;
      timeLen: number;
      language: string;
      abstracts: string;
      updatedAt: Date;
      asrResult: unknown;
      audioReport: unknown;
    }[]
  >`
    SELECT r."fileId", r."fileName", r."timeLen", t.language, t.abstracts, t."updatedAt", t."audioReport",
      CASE WHEN jsonb_typeof(t."asrResult") = 'array' THEN (
        SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(s) = 'object' THEN s - 'words' ELSE s END ORDER BY n), '[]')
        FROM jsonb_array_elements(t."asrResult") WITH ORDINALITY AS e(s, n)
      ) ELSE t."asrResult" END AS "asrResult"
    FROM audio_records r JOIN transcripts t ON t."fileId" = r."fileId"
    WHERE r."fileId" = ${fileId}::int AND r."userId" = ${userId}::int AND r."deletedAt" IS NULL`;
  if (!row) throw notFound();
  const { asrResult, audioReport, ...rest } = row;
  return { ...rest, segments: segmentsOf(asrResult), audio: audioNotesOf(audioReport) };
}

/**
 * The transcript as a reader of `lang` sees it: default speaker labels in the reader's language
 * (stored '说话人1' reads 'Speaker 1' in English, and back), names users gave as they are. get_text,
 * update_para and every export answer through it.
 */
export function forReader(t: OwnedTranscript, lang: Lang): OwnedTranscript {
  return { ...t, segments: t.segments.map((s) => ({ ...s, spkName: localSpeakerName(s.spkName, lang) })) };
}

/** Two names of one speaker: equal, or the same default label in two languages. */
const sameSpeaker = (a: string, b: string) => localSpeakerName(a, "zh") === localSpeakerName(b, "zh");

/** Locks the transcript row of the caller's record for a read-modify-write; 30001 when there is none. */
async function lockTranscript(tx: Tx, userId: number, fileId: number): Promise<OwnedTranscript> {
  const locked = await tx.$queryRaw<{ fileId: number }[]>`
    SELECT t."fileId" FROM transcripts t JOIN audio_records r ON r."fileId" = t."fileId"
    WHERE t."fileId" = ${fileId}::int AND r."userId" = ${userId}::int AND r."deletedAt" IS NULL
    FOR UPDATE OF t`;
  if (locked.length === 0) throw notFound();
  return ownedTranscript(tx, userId, fileId);
}

async function saveSegments(tx: Tx, fileId: number, segments: Segment[]): Promise<Date> {
  const saved = await tx.transcript.update({
    where: { fileId },
    data: { asrResult: segments as unknown as Prisma.InputJsonValue },
    select: { updatedAt: true },
  });
  // the search index commits with the text it indexes (docs/search.md)
  await reindexRecord(tx, fileId);
  return saved.updatedAt;
}

/** get_text's answer; word timings only when asked for (`withWords`). */
export function textDetail(t: OwnedTranscript, withWords = false) {
  const segments = withWords ? t.segments : t.segments.map(({ words: _words, ...segment }) => segment);
  return {
    fileId: t.fileId,
    fileName: t.fileName,
    updateTime: toEpochSeconds(t.updatedAt),
    timeLen: t.timeLen,
    language: t.language,
    asrResult: JSON.stringify(segments),
    abstracts: t.abstracts,
    audio: t.audio,
  };
}

/** update_text: replaces every segment (validated by ZEditableSegment). */
export async function replaceSegments(
  db: Db,
  userId: number,
  fileId: number,
  input: z.infer<typeof ZEditableSegment>[],
): Promise<{ fileId: number; updateTime: number; segments: number }> {
  const segments: Segment[] = input.map((s) => {
    const segment: Segment = {
      spkName: s.spkName,
      startTime: s.startTime,
      endTime: Math.max(s.startTime, s.endTime ?? s.startTime),
      text: s.text,
    };
    if (s.words) segment.words = s.words;
    return segment;
  });
  return db.$transaction(async (tx) => {
    const before = await lockTranscript(tx, userId, fileId);
    keepWordTimings(before.segments, segments);
    const updatedAt = await saveSegments(tx, fileId, segments);
    return { fileId, updateTime: toEpochSeconds(updatedAt), segments: segments.length };
  }, TX_OPTIONS);
}

/**
 * The page edits segments without their word timings (get_text leaves them out): a segment whose
 * start and text did not change keeps the timings it had.
 */
function keepWordTimings(before: Segment[], after: Segment[]): void {
  const words = new Map(before.filter((s) => s.words).map((s) => [`${s.startTime}\u0000${s.text}`, s.words]));
  for (const segment of after) {
    if (segment.words) continue;
    const kept = words.get(`${segment.startTime}\u0000${segment.text}`);
    if (kept) segment.words = kept;
  }
}

export interface ParaEdit {
  index: number;
  text?: string;
  spkName?: string;
  renameAll?: boolean;
}

/** Distinct speaker names in order of first appearance (spec §3 Speaker state: the suggested list). */
export function speakersOf(segments: Segment[]): string[] {
  return [...new Set(segments.map((s) => s.spkName).filter((n) => n !== ""))];
}

/**
 * update_para: one segment's text and/or its speaker. Spec §5: an empty name, or the old name (in
 * either language, for a default label), changes no name; otherwise only Han characters, English
 * letters and digits, at most 10 → 10002 naming spkName. renameAll renames every segment carrying
 * the old name, else only this one. The answer's names are in the reader's language.
 */
export async function editParagraph(db: Db, userId: number, fileId: number, edit: ParaEdit, lang: Lang) {
  const newNameRaw = (edit.spkName ?? "").trim().normalize("NFC");
  return db.$transaction(async (tx) => {
    const t = await lockTranscript(tx, userId, fileId);
    const segment = t.segments[edit.index];
    if (!segment) throw AppError.invalid("index", `must be below ${t.segments.length}`);
    const oldName = segment.spkName;
    let newName = oldName;
    let renamed = 0;
    if (newNameRaw !== "" && !sameSpeaker(newNameRaw, oldName)) {
      if (!isValidSpeakerName(newNameRaw)) {
        throw AppError.invalid(
          "spkName",
          `only Chinese characters, English letters and digits, at most ${SPEAKER_NAME_MAX}`,
        );
      }
      newName = newNameRaw;
      for (const [i, s] of t.segments.entries()) {
        if (i === edit.index || (edit.renameAll && sameSpeaker(s.spkName, oldName))) {
          s.spkName = newName;
          renamed += 1;
        }
      }
    }
    if (edit.text !== undefined) segment.text = edit.text;
    const updatedAt = renamed > 0 || edit.text !== undefined ? await saveSegments(tx, fileId, t.segments) : t.updatedAt;
    const local = (name: string) => localSpeakerName(name, lang);
    return {
      fileId,
      index: edit.index,
      segment: { ...segment, spkName: local(segment.spkName) },
      oldName: local(oldName),
      newName: local(newName),
      renameAll: Boolean(edit.renameAll),
      renamed,
      speakers: speakersOf(forReader(t, lang).segments),
      updateTime: toEpochSeconds(updatedAt),
    };
  }, TX_OPTIONS);
}

export async function saveAbstracts(db: Db, userId: number, fileId: number, abstracts: string): Promise<string> {
  return db.$transaction(async (tx) => {
    await lockTranscript(tx, userId, fileId);
    await tx.transcript.update({ where: { fileId }, data: { abstracts } });
    await reindexRecord(tx, fileId);
    return abstracts;
  }, TX_OPTIONS);
}

export async function hotWordsOf(db: Db, userId: number): Promise<string[]> {
  const rows = await db.hotWord.findMany({ where: { userId }, orderBy: { id: "asc" }, select: { word: true } });
  return rows.map((r) => r.word);
}

/** PUT hotWords: the list replaces the saved one (≤ 200, validated and de-duplicated by the schema). */
export async function replaceHotWords(db: Db, userId: number, words: string[]): Promise<string[]> {
  if (words.length > MAX_HOT_WORDS) throw AppError.invalid("hotWords", `at most ${MAX_HOT_WORDS} words`);
  await db.$transaction(async (tx) => {
    // One writer per user at a time, so two parallel PUTs leave one list, not a mix.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hot_words'), ${userId}::int)`;
    await tx.hotWord.deleteMany({ where: { userId } });
    if (words.length) await tx.hotWord.createMany({ data: words.map((word) => ({ userId, word })) });
  }, TX_OPTIONS);
  return words;
}
