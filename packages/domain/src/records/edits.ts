import {
  carryWordTimes,
  type EditableSegment,
  isValidSpeakerName,
  localSpeakerName,
  type Segment,
  SPEAKER_NAME_MAX,
  StatusCode,
} from "@yuelu/contracts";
import type { Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { keepSpeakerMarks, learnNames } from "../people/people.ts";
import { type Tx, transact } from "../transaction.ts";
import { segmentsOf } from "./segments.ts";
import { writeTranscript } from "./transcript.ts";

/**
 * What a user changes in their transcript (docs/records-api.md "Transcript"): every segment at once
 * (update_text), one segment's text or speaker (update_para, a rename of one or of all), the summary
 * (update_abstracts). Each is one transaction on the locked transcript, written and announced once
 * (writeTranscript): search sees the edit when it commits, integrators get one `transcript.updated`.
 *
 * An edit may name the version it was made on (the page's get_text, or its last edit's answer): when the
 * locked transcript is at another one — another tab or device changed it meanwhile — it is refused with
 * 30002 and nothing is written. The check is made on the locked row and the write is conditional on the same
 * version, so of two edits made on one version exactly one is written.
 */

type Ctx = Pick<DomainContext, "db" | "events">;

export interface LockedTranscript {
  segments: Segment[];
  abstracts: string;
  version: number;
  updatedAt: Date;
}

/** The transcript of the caller's visible record, locked for a read-modify-write; 30001 when there is none. */
export async function lockTranscript(tx: Tx, userId: number, fileId: number): Promise<LockedTranscript> {
  const [row] = await tx.$queryRaw<{ asrResult: unknown; abstracts: string; version: number; updatedAt: Date }[]>`
    SELECT t."asrResult", t.abstracts, t.version, t."updatedAt"
    FROM transcripts t JOIN audio_records r ON r."fileId" = t."fileId"
    WHERE t."fileId" = ${fileId}::int AND r."userId" = ${userId}::int AND r."deletedAt" IS NULL
    FOR UPDATE OF t`;
  if (!row) throw new AppError(StatusCode.RecordNotFound);
  return {
    segments: segmentsOf(row.asrResult),
    abstracts: row.abstracts,
    version: row.version,
    updatedAt: row.updatedAt,
  };
}

export interface Written {
  version: number;
  updatedAt: Date;
}

/** 30002 when the edit was made on another version than the transcript's now. */
function checkVersion(t: LockedTranscript, expected: number | undefined): void {
  if (expected !== undefined && expected !== t.version) throw new AppError(StatusCode.TranscriptChanged);
}

/** update_text: replaces every segment; the words an edit did not change keep their times (keepWordTimings). */
export async function replaceSegments(
  ctx: Ctx,
  userId: number,
  fileId: number,
  input: EditableSegment[],
  version?: number,
): Promise<Written & { segments: number }> {
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
  return transact(ctx, async (tx, after) => {
    const before = await lockTranscript(tx, userId, fileId);
    checkVersion(before, version);
    keepWordTimings(before.segments, segments);
    // people (docs/people.md): speaker numbers and person marks kept; names changed here teach too
    const renamedSpeakers = keepSpeakerMarks(before.segments, segments);
    if (renamedSpeakers.length) await learnNames(tx, { userId, fileId, speakers: renamedSpeakers }, segments);
    const written = await saveSegments(tx, after, { fileId, userId, change: "edited", version }, segments);
    return { ...written, segments: segments.length };
  });
}

/**
 * The page edits segments without their word timings (get_text leaves them out): a segment keeps the
 * timings it had — found by its start (else by its place, when the segments are as many as before) —
 * and, where its text changed, the words the edit did not change keep theirs (carryWordTimes: issue 45).
 */
function keepWordTimings(before: Segment[], after: Segment[]): void {
  const byStart = new Map<number, Segment>();
  for (const s of before) if (s.words?.length && !byStart.has(s.startTime)) byStart.set(s.startTime, s);
  const samePlaces = before.length === after.length;
  for (const [i, segment] of after.entries()) {
    if (segment.words) continue;
    const was = byStart.get(segment.startTime) ?? (samePlaces ? before[i] : undefined);
    if (!was?.words?.length) continue;
    segment.words = was.text === segment.text ? was.words : retimed(was.words, segment);
  }
}

/** A segment's words after its text changed: the unchanged words keep their times. */
function retimed(words: NonNullable<Segment["words"]>, segment: Segment): Segment["words"] {
  const carried = carryWordTimes(words, segment.text, segment);
  return carried.length ? carried : undefined;
}

export interface ParaEdit {
  index: number;
  text?: string;
  spkName?: string;
  renameAll?: boolean;
  /** the version the edit was made on (30002 when the transcript is at another) */
  version?: number;
}

/** Two names of one speaker: equal, or the same default label in two languages. */
export const sameSpeaker = (a: string, b: string) => localSpeakerName(a, "zh") === localSpeakerName(b, "zh");

export interface ParaEdited extends Written {
  /** every segment after the edit (stored names) */
  segments: Segment[];
  segment: Segment;
  oldName: string;
  newName: string;
  /** segments renamed (0: no name changed) */
  renamed: number;
}

/**
 * update_para: one segment's text and/or its speaker. Spec §5: an empty name, or the old name (in
 * either language, for a default label), changes no name; otherwise only Han characters, English
 * letters and digits, at most 10 → 10002 naming spkName. renameAll renames every segment carrying
 * the old name, else only this one. Nothing changed: nothing is written or announced.
 */
export async function editParagraph(ctx: Ctx, userId: number, fileId: number, edit: ParaEdit): Promise<ParaEdited> {
  const newNameRaw = (edit.spkName ?? "").trim().normalize("NFC");
  return transact(ctx, async (tx, after) => {
    const t = await lockTranscript(tx, userId, fileId);
    checkVersion(t, edit.version);
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
    if (renamed > 0) {
      // people (docs/people.md): a name given teaches the speaker's voice (single or all)
      const speakers = t.segments.filter((s) => s.spkName === newName && s.speaker !== undefined);
      await learnNames(tx, { userId, fileId, speakers: speakers.map((s) => s.speaker as number) }, t.segments);
    }
    if (edit.text !== undefined && edit.text !== segment.text) {
      segment.text = edit.text;
      // the words it did not change keep their times (issue 45)
      if (segment.words?.length) {
        const words = retimed(segment.words, segment);
        if (words) segment.words = words;
        else delete segment.words;
      }
    }
    const change = renamed > 0 ? "speakers" : "edited";
    const written =
      renamed > 0 || edit.text !== undefined
        ? await saveSegments(tx, after, { fileId, userId, change, version: edit.version }, t.segments)
        : { version: t.version, updatedAt: t.updatedAt };
    return { ...written, segments: t.segments, segment, oldName, newName, renamed };
  });
}

/** update_abstracts: the record's summary, as the user wrote it. */
export async function saveAbstracts(ctx: Ctx, userId: number, fileId: number, abstracts: string): Promise<Written> {
  return transact(ctx, async (tx, after) => {
    const t = await lockTranscript(tx, userId, fileId);
    const written = await writeTranscript(tx, after, { fileId, userId, change: "summary", fields: { abstracts } });
    return written ?? t;
  });
}

async function saveSegments(
  tx: Tx,
  after: Parameters<typeof writeTranscript>[1],
  write: { fileId: number; userId: number; change: "edited" | "speakers"; version: number | undefined },
  segments: Segment[],
): Promise<Written> {
  const { version, ...rest } = write;
  const written = await writeTranscript(tx, after, {
    ...rest,
    fields: { asrResult: segments as unknown as Prisma.InputJsonValue },
    ...(version !== undefined ? { expectedVersion: version } : {}),
  });
  // the row is locked by the caller and its version checked: it is there, at that version
  if (!written) throw new AppError(version === undefined ? StatusCode.RecordNotFound : StatusCode.TranscriptChanged);
  return written;
}
