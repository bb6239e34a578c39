import {
  type AudioNotes,
  type EditableSegment,
  type Lang,
  localSpeakerName,
  MAX_HOT_WORDS,
  NOISE_COLOURS,
  type Segment,
  StatusCode,
  toEpochSeconds,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import {
  AppError,
  type DomainContext,
  editParagraph as editParagraphRule,
  type ParaEdit,
  replaceSegments as replaceSegmentsRule,
  segmentsOf,
  TX_OPTIONS,
  type Tx,
  visibleTo,
} from "@yuelu/domain";

/**
 * Transcripts of the user's own records (docs/records-api.md "Transcript"): the API's reads and answers.
 * Every write (edits, renames, the summary) is a rule of domain/records/edits.ts.
 */

export interface OwnedTranscript {
  fileId: number;
  fileName: string;
  timeLen: number;
  language: string;
  abstracts: string;
  updatedAt: Date;
  /** bumped by every change (domain/records/transcript.ts writeTranscript) */
  version: number;
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
    where: { fileId, ...visibleTo(userId) },
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
    version: t.version,
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
      version: number;
      asrResult: unknown;
      audioReport: unknown;
    }[]
  >`
    SELECT r."fileId", r."fileName", r."timeLen", t.language, t.abstracts, t."updatedAt", t.version, t."audioReport",
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
    version: t.version,
  };
}

/** Distinct speaker names in order of first appearance (spec §3 Speaker state: the suggested list). */
export function speakersOf(segments: Segment[]): string[] {
  return [...new Set(segments.map((s) => s.spkName).filter((n) => n !== ""))];
}

/** update_text (domain/records/edits.ts): the answer. */
export async function replaceSegments(
  domain: DomainContext,
  userId: number,
  fileId: number,
  input: EditableSegment[],
  version?: number,
): Promise<{ fileId: number; updateTime: number; segments: number; version: number }> {
  const written = await replaceSegmentsRule(domain, userId, fileId, input, version);
  return {
    fileId,
    updateTime: toEpochSeconds(written.updatedAt),
    segments: written.segments,
    version: written.version,
  };
}

/** update_para (domain/records/edits.ts): the answer, its names in the reader's language. */
export async function editParagraph(domain: DomainContext, userId: number, fileId: number, edit: ParaEdit, lang: Lang) {
  const edited = await editParagraphRule(domain, userId, fileId, edit);
  const local = (name: string) => localSpeakerName(name, lang);
  return {
    fileId,
    index: edit.index,
    segment: { ...edited.segment, spkName: local(edited.segment.spkName) },
    oldName: local(edited.oldName),
    newName: local(edited.newName),
    renameAll: Boolean(edit.renameAll),
    renamed: edited.renamed,
    speakers: speakersOf(edited.segments.map((s) => ({ ...s, spkName: local(s.spkName) }))),
    updateTime: toEpochSeconds(edited.updatedAt),
    version: edited.version,
  };
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
