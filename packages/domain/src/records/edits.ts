import {
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
import { type Tx, transact } from "../transaction.ts";
import { segmentsOf } from "./segments.ts";
import { writeTranscript } from "./transcript.ts";

/**
 * What a user changes in their transcript (docs/records-api.md "Transcript"): every segment at once
 * (update_text), one segment's text or speaker (update_para, a rename of one or of all), the summary
 * (update_abstracts). Each is one transaction on the locked transcript, written and announced once
 * (writeTranscript): search sees the edit when it commits, integrators get one `transcript.updated`.
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

/** update_text: replaces every segment; a segment whose start and text did not change keeps its word timings. */
export async function replaceSegments(
  ctx: Ctx,
  userId: number,
  fileId: number,
  input: EditableSegment[],
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
    keepWordTimings(before.segments, segments);
    const written = await saveSegments(tx, after, { fileId, userId, change: "edited" }, segments);
    return { ...written, segments: segments.length };
  });
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
    const change = renamed > 0 ? "speakers" : "edited";
    const written =
      renamed > 0 || edit.text !== undefined
        ? await saveSegments(tx, after, { fileId, userId, change }, t.segments)
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
  write: { fileId: number; userId: number; change: "edited" | "speakers" },
  segments: Segment[],
): Promise<Written> {
  const written = await writeTranscript(tx, after, {
    ...write,
    fields: { asrResult: segments as unknown as Prisma.InputJsonValue },
  });
  // the row is locked by the caller: it is there
  if (!written) throw new AppError(StatusCode.RecordNotFound);
  return written;
}
