import {
  DEFAULT_SPEAKER_NAME_PATTERN,
  isValidSpeakerName,
  type Segment,
  SPEAKER_NAME_MAX,
  StatusCode,
  speakerLabel,
} from "@yuelu/contracts";
import type { Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { segmentsOf } from "../records/segments.ts";
import { writeTranscript } from "../records/transcript.ts";
import { type AfterCommit, type Tx, transact } from "../transaction.ts";
import { matchSpeakers, poolPrints, type SpeakerVoice, validPrint } from "./prints.ts";

/**
 * People (docs/people.md): speakers recognised across recordings. Every write is here, each in one transaction,
 * and every transcript change goes through writeTranscript (version +1, `transcript.changed`):
 *
 * - a finished transcription stores its speakers' prints and names the speakers whose voice matches a known
 *   person (suggested) — `rememberSpeakers`, inside completeTask's transaction;
 * - a name the user gives (update_para, single or all; update_text) teaches: the speaker's print joins the person
 *   of that name — `learnNames`, inside the edit's transaction;
 * - the user confirms or undoes a suggestion, renames or forgets a person, or turns remembering off.
 *
 * A segment carries `speaker` (the diarization's number, kept through every edit), `personId` while it is named
 * as a known person, and `suggested` while that name came from a match not yet confirmed.
 */

type Ctx = Pick<DomainContext, "db" | "events">;

/** A default label ('说话人2', 'Speaker 2') or nothing: not a person's name. */
export const isSpeakerLabel = (name: string) => name.trim() === "" || DEFAULT_SPEAKER_NAME_PATTERN.test(name.trim());

const unknownPerson = () => AppError.invalid("personId", "no such person");

async function remembers(tx: Tx, userId: number): Promise<boolean> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { rememberVoices: true } });
  return user?.rememberVoices === true;
}

function unmark(s: Segment): void {
  delete s.personId;
  delete s.suggested;
}

// ── a finished transcription ─────────────────────────────────────────────────────────────────────────────────

/**
 * Inside completeTask's transaction, before the transcript is written: the record's earlier prints go (a
 * transcript made again has new speakers); while the user remembers voices, the new prints are kept and every
 * speaker whose voice matches a known person (prints.ts matchSpeakers) is named as them, suggested. Answers the
 * segments to store.
 */
export async function rememberSpeakers(
  tx: Tx,
  input: { userId: number; fileId: number; voices: readonly SpeakerVoice[] },
  segments: Segment[],
): Promise<Segment[]> {
  const { userId, fileId } = input;
  await tx.speakerPrint.deleteMany({ where: { fileId } });
  const voices = input.voices.filter((v) => validPrint(v.model, v.vector));
  if (voices.length === 0 || !(await remembers(tx, userId))) return segments;
  await tx.speakerPrint.createMany({
    data: voices.map((v) => ({
      fileId,
      userId,
      speaker: v.speaker,
      model: v.model,
      vector: v.vector,
      speechMs: Math.round(v.speechMs),
    })),
  });
  const people = await tx.person.findMany({
    where: { userId },
    select: { id: true, name: true, model: true, centroid: true },
  });
  if (people.length === 0) return segments;
  for (const [speaker, match] of matchSpeakers(voices, people)) {
    const person = people.find((p) => p.id === match.personId);
    if (!person) continue;
    await tx.speakerPrint.update({
      where: { fileId_speaker: { fileId, speaker } },
      data: { personId: person.id, suggested: true },
    });
    for (const s of segments) {
      if (s.speaker !== speaker) continue;
      s.spkName = person.name;
      s.personId = person.id;
      s.suggested = true;
    }
  }
  return segments;
}

/**
 * The voices a new recording's speakers may be told apart by (worker speech/known-speakers.ts): the user's
 * people of `model`, while the user remembers voices; none otherwise (nothing matched).
 */
export async function knownVoices(
  db: DomainContext["db"],
  userId: number,
  model: string,
): Promise<{ id: number; model: string; centroid: number[] }[]> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { rememberVoices: true } });
  if (user?.rememberVoices !== true) return [];
  return db.person.findMany({ where: { userId, model }, select: { id: true, model: true, centroid: true } });
}

// ── names the user gives ─────────────────────────────────────────────────────────────────────────────────────

/**
 * The name users gave a speaker: of the names (not default labels) its segments carry, the one on the most
 * speech — when it is the only one, or covers at least half the speaker's speech. Else none.
 */
function nameOf(segments: readonly Segment[], speaker: number): string | null {
  let total = 0;
  const byName = new Map<string, number>();
  for (const s of segments) {
    if (s.speaker !== speaker) continue;
    const ms = Math.max(1, s.endTime - s.startTime);
    total += ms;
    if (!isSpeakerLabel(s.spkName)) byName.set(s.spkName, (byName.get(s.spkName) ?? 0) + ms);
  }
  const ranked = [...byName].sort((a, b) => b[1] - a[1]);
  const [best] = ranked;
  if (!best) return null;
  return ranked.length === 1 || best[1] * 2 >= total ? best[0] : null;
}

/** A person's voiceprint again from the prints users named (or confirmed) as them; kept when none is left. */
async function refreshPerson(tx: Tx, personId: number): Promise<void> {
  const person = await tx.person.findUnique({ where: { id: personId }, select: { model: true } });
  if (!person) return;
  const prints = await tx.speakerPrint.findMany({
    where: { personId, suggested: false, model: person.model },
    select: { vector: true, speechMs: true },
  });
  if (prints.length === 0) return;
  await tx.person.update({
    where: { id: personId },
    data: {
      centroid: poolPrints(person.model, prints),
      speechMs: prints.reduce((sum, p) => sum + p.speechMs, 0),
    },
  });
}

/**
 * A print taught `personId` and now names someone else (or no one): the person is forgotten when no print of
 * theirs is left (their voiceprint came from this speaker alone), else pooled again without it.
 */
async function afterUnlink(tx: Tx, personId: number, wasConfirmed: boolean): Promise<void> {
  if (!wasConfirmed) return;
  const left = await tx.speakerPrint.count({ where: { personId } });
  if (left === 0) await tx.person.delete({ where: { id: personId } });
  else await refreshPerson(tx, personId);
}

/**
 * Inside an edit's transaction, after names changed (update_para, single or all; update_text): each touched
 * speaker's print follows the name users gave it (nameOf) — the person of that name, made when new, pools it;
 * the person it named before lets it go. `segments` (all of the transcript, as they will be stored) get their
 * marks: `personId` where a segment carries its person's name, `suggested` dropped (a name the user gave or kept
 * is theirs). Without remembering, only the marks follow.
 */
export async function learnNames(
  tx: Tx,
  input: { userId: number; fileId: number; speakers: Iterable<number> },
  segments: Segment[],
): Promise<void> {
  const { userId, fileId } = input;
  const remember = await remembers(tx, userId);
  const names = new Map(
    (await tx.person.findMany({ where: { userId }, select: { id: true, name: true } })).map((p) => [p.id, p.name]),
  );
  for (const speaker of new Set(input.speakers)) {
    const name = nameOf(segments, speaker);
    const mine = segments.filter((s) => s.speaker === speaker);
    const print = remember
      ? await tx.speakerPrint.findUnique({ where: { fileId_speaker: { fileId, speaker } } })
      : null;
    // the suggestion still stands where the name is the suggested one on suggested segments only
    const pending =
      print?.suggested === true &&
      name !== null &&
      names.get(print.personId ?? 0) === name &&
      mine.every((s) => s.spkName !== name || s.suggested === true);
    let personId: number | null = null;
    if (pending) {
      personId = print.personId;
    } else if (print && name) {
      const existing = await tx.person.findUnique({ where: { userId_name: { userId, name } } });
      const person =
        existing ??
        (await tx.person.create({
          data: { userId, name, model: print.model, centroid: print.vector, speechMs: print.speechMs },
        }));
      names.set(person.id, person.name);
      personId = person.id;
      if (print.personId !== person.id || print.suggested) {
        await tx.speakerPrint.update({ where: { id: print.id }, data: { personId: person.id, suggested: false } });
        if (print.personId !== null && print.personId !== person.id) {
          await afterUnlink(tx, print.personId, !print.suggested);
        }
      }
      await refreshPerson(tx, person.id);
      await tx.person.update({ where: { id: person.id }, data: { updatedAt: new Date() } });
    } else if (print?.personId) {
      await tx.speakerPrint.update({ where: { id: print.id }, data: { personId: null, suggested: false } });
      await afterUnlink(tx, print.personId, !print.suggested);
    }
    for (const s of mine) {
      if (personId !== null && s.spkName === name) {
        s.personId = personId;
        if (!pending) delete s.suggested;
      } else if (s.personId !== undefined && !(remember && !print && names.get(s.personId) === s.spkName)) {
        unmark(s);
      }
    }
  }
}

/**
 * update_text replaces every segment: a segment at the same start as before keeps its speaker number, and its
 * person marks when its name did not change. Answers the speakers whose names changed (learnNames teaches them).
 */
export function keepSpeakerMarks(before: readonly Segment[], after: Segment[]): number[] {
  const byStart = new Map<number, Segment>();
  for (const s of before) if (!byStart.has(s.startTime)) byStart.set(s.startTime, s);
  const touched = new Set<number>();
  for (const s of after) {
    unmark(s);
    delete s.speaker;
    const old = byStart.get(s.startTime);
    if (old?.speaker === undefined) continue;
    s.speaker = old.speaker;
    if (old.spkName === s.spkName) {
      if (old.personId !== undefined) s.personId = old.personId;
      if (old.suggested) s.suggested = true;
    } else touched.add(old.speaker);
  }
  return [...touched];
}

// ── the People page and the suggestions ──────────────────────────────────────────────────────────────────────

export interface PersonView {
  personId: number;
  name: string;
  recordings: number;
  suggested: number;
  createdAt: Date;
  updatedAt: Date;
}

/** GET people/list: the account's people, most recently changed first, and whether voices are remembered. */
export async function listPeople(
  db: DomainContext["db"],
  userId: number,
): Promise<{ remember: boolean; list: PersonView[] }> {
  const [user, people] = await Promise.all([
    db.user.findUnique({ where: { id: userId }, select: { rememberVoices: true } }),
    db.person.findMany({
      where: { userId },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      select: {
        id: true,
        name: true,
        createdAt: true,
        updatedAt: true,
        prints: { select: { fileId: true, suggested: true, record: { select: { deletedAt: true } } } },
      },
    }),
  ]);
  return {
    remember: user?.rememberVoices === true,
    list: people.map((p) => {
      const visible = p.prints.filter((x) => x.record.deletedAt === null);
      return {
        personId: p.id,
        name: p.name,
        recordings: new Set(visible.map((x) => x.fileId)).size,
        suggested: new Set(visible.filter((x) => x.suggested).map((x) => x.fileId)).size,
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
      };
    }),
  };
}

/** Locks the user's transcripts of `fileIds` (the bin's too) and hands each one's segments to `change`. */
async function rewriteTranscripts(
  tx: Tx,
  after: AfterCommit,
  userId: number,
  fileIds: readonly number[],
  change: (segments: Segment[], language: string) => boolean,
): Promise<number> {
  if (fileIds.length === 0) return 0;
  const rows = await tx.$queryRaw<{ fileId: number; asrResult: unknown; language: string }[]>`
    SELECT t."fileId", t."asrResult", t.language
    FROM transcripts t JOIN audio_records r ON r."fileId" = t."fileId"
    WHERE t."fileId" = ANY(${[...new Set(fileIds)]}::int[]) AND r."userId" = ${userId}::int
    ORDER BY t."fileId"
    FOR UPDATE OF t`;
  let written = 0;
  for (const row of rows) {
    const segments = segmentsOf(row.asrResult);
    if (!change(segments, row.language)) continue;
    await writeTranscript(tx, after, {
      fileId: row.fileId,
      userId,
      change: "speakers",
      fields: { asrResult: segments as unknown as Prisma.InputJsonValue },
    });
    written++;
  }
  return written;
}

/** A person's marks off the segments: a suggested name goes back to the speaker's label, a given one stays. */
function forgetIn(personIds: ReadonlySet<number>) {
  return (segments: Segment[], language: string) => {
    let changed = false;
    for (const s of segments) {
      if (s.personId === undefined || !personIds.has(s.personId)) continue;
      if (s.suggested && s.speaker !== undefined) s.spkName = speakerLabel(s.speaker, language);
      unmark(s);
      changed = true;
    }
    return changed;
  };
}

/** POST people/delete: the person and every print linked to them are deleted at once; transcripts lose the marks. */
export async function forgetPerson(
  ctx: Ctx,
  userId: number,
  personId: number,
): Promise<{ personId: number; transcripts: number }> {
  return transact(ctx, async (tx, after) => {
    const person = await tx.person.findFirst({ where: { id: personId, userId }, select: { id: true } });
    if (!person) throw unknownPerson();
    const prints = await tx.speakerPrint.findMany({ where: { personId }, select: { fileId: true } });
    const transcripts = await rewriteTranscripts(
      tx,
      after,
      userId,
      prints.map((p) => p.fileId),
      forgetIn(new Set([personId])),
    );
    await tx.speakerPrint.deleteMany({ where: { personId } });
    await tx.person.delete({ where: { id: personId } });
    return { personId, transcripts };
  });
}

/**
 * POST people/settings: remembering on or off. Off forgets everything at once — every person, every speaker's
 * print — and new transcripts keep none (nothing kept, nothing matched) until it is on again.
 */
export async function setRemembering(ctx: Ctx, userId: number, remember: boolean): Promise<{ remember: boolean }> {
  return transact(ctx, async (tx, after) => {
    await tx.user.update({ where: { id: userId }, data: { rememberVoices: remember } });
    if (!remember) {
      const people = await tx.person.findMany({ where: { userId }, select: { id: true } });
      const marked = await tx.speakerPrint.findMany({
        where: { userId, personId: { not: null } },
        select: { fileId: true },
      });
      await rewriteTranscripts(
        tx,
        after,
        userId,
        marked.map((p) => p.fileId),
        forgetIn(new Set(people.map((p) => p.id))),
      );
      await tx.speakerPrint.deleteMany({ where: { userId } });
      await tx.person.deleteMany({ where: { userId } });
    }
    return { remember };
  });
}

/**
 * POST people/rename: the person's new name, in every segment that carries them. A name another person has
 * merges this one into it (the same voice named twice): prints move, the voiceprint is pooled again.
 */
export async function renamePerson(
  ctx: Ctx,
  userId: number,
  personId: number,
  rawName: string,
): Promise<{ personId: number; name: string; mergedInto?: number; transcripts: number }> {
  const name = rawName.trim().normalize("NFC");
  if (!isValidSpeakerName(name) || isSpeakerLabel(name)) {
    throw AppError.invalid("name", `only Chinese characters, English letters and digits, at most ${SPEAKER_NAME_MAX}`);
  }
  return transact(ctx, async (tx, after) => {
    const person = await tx.person.findFirst({ where: { id: personId, userId } });
    if (!person) throw unknownPerson();
    const other = await tx.person.findUnique({ where: { userId_name: { userId, name } } });
    const target = other && other.id !== personId ? other : null;
    const prints = await tx.speakerPrint.findMany({ where: { personId }, select: { fileId: true } });
    const newId = target?.id ?? personId;
    const transcripts = await rewriteTranscripts(
      tx,
      after,
      userId,
      prints.map((p) => p.fileId),
      (segments) => {
        let changed = false;
        for (const s of segments) {
          if (s.personId !== personId) continue;
          s.spkName = name;
          s.personId = newId;
          changed = true;
        }
        return changed;
      },
    );
    if (target) {
      await tx.speakerPrint.updateMany({ where: { personId }, data: { personId: target.id } });
      await tx.person.delete({ where: { id: personId } });
      await refreshPerson(tx, target.id);
      await tx.person.update({ where: { id: target.id }, data: { updatedAt: new Date() } });
      return { personId: target.id, name, mergedInto: target.id, transcripts };
    }
    if (name !== person.name) await tx.person.update({ where: { id: personId }, data: { name } });
    return { personId, name, transcripts };
  });
}

/**
 * POST people/confirm: a suggested name of speaker `speaker` in the user's transcript confirmed (the print joins
 * the person's voiceprint; the segments lose `suggested`) or undone (the speaker's label back, the print no longer
 * the person's). 10002 naming `speaker` when that speaker has no suggested name; 30001 for another's record.
 */
export async function confirmSuggestion(
  ctx: Ctx,
  userId: number,
  input: { fileId: number; speaker: number; accept: boolean },
): Promise<{ spkName: string; personId?: number; segments: number; version: number }> {
  const { fileId, speaker, accept } = input;
  return transact(ctx, async (tx, after) => {
    const [row] = await tx.$queryRaw<{ asrResult: unknown; language: string; version: number }[]>`
      SELECT t."asrResult", t.language, t.version
      FROM transcripts t JOIN audio_records r ON r."fileId" = t."fileId"
      WHERE t."fileId" = ${fileId}::int AND r."userId" = ${userId}::int AND r."deletedAt" IS NULL
      FOR UPDATE OF t`;
    if (!row) throw new AppError(StatusCode.RecordNotFound);
    const segments = segmentsOf(row.asrResult);
    const print = await tx.speakerPrint.findUnique({ where: { fileId_speaker: { fileId, speaker } } });
    const mine = segments.filter((s) => s.speaker === speaker && s.suggested && s.personId !== undefined);
    if (!print?.personId || !print.suggested || mine.length === 0) {
      throw AppError.invalid("speaker", "this speaker has no suggested name");
    }
    const personId = print.personId;
    let spkName = mine[0]!.spkName;
    if (accept) {
      await tx.speakerPrint.update({ where: { id: print.id }, data: { suggested: false } });
      await refreshPerson(tx, personId);
      await tx.person.update({ where: { id: personId }, data: { updatedAt: new Date() } });
      for (const s of mine) delete s.suggested;
    } else {
      await tx.speakerPrint.update({ where: { id: print.id }, data: { personId: null, suggested: false } });
      spkName = speakerLabel(speaker, row.language);
      for (const s of mine) {
        s.spkName = spkName;
        unmark(s);
      }
    }
    const written = await writeTranscript(tx, after, {
      fileId,
      userId,
      change: "speakers",
      fields: { asrResult: segments as unknown as Prisma.InputJsonValue },
    });
    return {
      spkName,
      ...(accept ? { personId } : {}),
      segments: mine.length,
      version: written?.version ?? row.version,
    };
  });
}
