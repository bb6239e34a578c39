import type { Passage, Segment } from "@yuelu/contracts";
import { type Db, Prisma } from "@yuelu/db";
import { visibleTo } from "../records/library.ts";
import { segmentsOf } from "../records/segments.ts";
import { lexeme } from "../search/tokenize.ts";
import { termsOf } from "./summary.ts";
import { ownTranscriptForNotes } from "./tasks.ts";

/**
 * Passages for a question (docs/notes.md "Ask"): the segments that best match what is asked, found without a
 * model. The question's own words ("我们关于预算决定了什么", "what did we decide about the budget") are dropped,
 * the rest become terms (Chinese bigrams, English words lightly stemmed), and each segment scores the sum of
 * its terms' inverse document frequency (a term in every segment weighs nothing) times 1 + ln(count). One
 * record: all its segments are scored; all the caller's records: the search index (docs/search.md) finds the
 * candidate segments — any term (an OR), the caller's records only, none in the recycle bin — and they are
 * scored the same way. Only passages of the caller's own records are ever returned.
 */

export const PASSAGES_DEFAULT = 5;
/** candidate segments read from the search index for a question across records */
const CANDIDATES = 400;
/** a passage this short takes the next segment along, so it reads as a thought rather than a fragment */
const SHORT_CHARS = 24;
const NEIGHBOUR_MAX_CHARS = 160;

/** What a question says that is not what it is about. */
const ZH_QUESTION_WORDS =
  /什么|怎么样|怎么|怎样|如何|为什么|为何|我们|你们|他们|咱们|是否|是不是|有没有|有哪些|哪些|哪个|哪里|多少|关于|一下|请问|提到|提过|说过|讲过|谈到|讨论|[吗呢吧啊呀了的过是和与及]/gu;
const EN_QUESTION_WORDS = new Set(
  (
    "what when where who whom whose which why how did does do done we us our you your they them the a an about " +
    "say said tell told talk talked discuss discussed mention mentioned anything something was were is are any " +
    "there regarding decide decided agree agreed meeting"
  ).split(" "),
);

/** "decisions" → "decision", "budgets" → "budget", "planning" → "plann": the same on both sides, so they meet. */
export function stem(word: string): string {
  if (/[^a-z0-9]/.test(word)) return word;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The terms a question is about (stemmed), and its English words as typed (for the search index). */
export function questionTerms(question: string): { terms: string[]; words: string[] } {
  const text = question.normalize("NFKC").replace(ZH_QUESTION_WORDS, " ");
  const raw = termsOf(text).filter((t) => !EN_QUESTION_WORDS.has(t));
  const words = [...new Set(raw.filter((t) => /^[a-z0-9]+$/.test(t)))];
  return { terms: [...new Set(raw.map(stem))], words };
}

const segmentTerms = (text: string) => termsOf(text.normalize("NFKC")).map(stem);

interface Candidate {
  fileId: number;
  seq: number;
  text: string;
}

/** Each candidate's score over `terms`, IDF taken over `total` segments (df counted among the candidates). */
function score(candidates: Candidate[], terms: string[], total: number): { c: Candidate; score: number }[] {
  const wanted = new Set(terms);
  const counts = candidates.map((c) => {
    const m = new Map<string, number>();
    for (const t of segmentTerms(c.text)) if (wanted.has(t)) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const df = new Map<string, number>();
  for (const m of counts) for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(total, candidates.length);
  return candidates
    .map((c, i) => {
      let s = 0;
      for (const [t, tf] of counts[i]!) s += Math.log(1 + n / df.get(t)!) * (1 + Math.log(tf));
      return { c, score: s };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.c.fileId - b.c.fileId || a.c.seq - b.c.seq);
}

function passageOf(fileId: number, fileName: string, segments: Segment[], index: number): Passage {
  const s = segments[index]!;
  const next = segments[index + 1];
  const withNext =
    [...s.text.trim()].length < SHORT_CHARS && next && next.text.trim() && [...next.text].length <= NEIGHBOUR_MAX_CHARS;
  // nothing between Chinese sentences (a Han character or a full-width mark), a space otherwise
  const joiner = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]$/u.test(s.text.trim()) ? "" : " ";
  return {
    fileId,
    fileName,
    segmentIndex: index,
    startTime: s.startTime,
    endTime: withNext ? Math.max(next.endTime, s.endTime) : s.endTime,
    speaker: s.spkName,
    text: withNext ? `${s.text.trim()}${joiner}${next.text.trim()}` : s.text,
  };
}

/** Picks the best `limit`, skipping one already inside an earlier passage (a short one took its neighbour). */
function pick(
  ranked: { c: Candidate; score: number }[],
  limit: number,
  transcript: (fileId: number) => { fileName: string; segments: Segment[] } | undefined,
): Passage[] {
  const out: Passage[] = [];
  const covered = new Set<string>();
  for (const { c } of ranked) {
    if (out.length >= limit) break;
    const t = transcript(c.fileId);
    if (t === undefined || t.segments[c.seq] === undefined || covered.has(`${c.fileId}:${c.seq}`)) continue;
    const p = passageOf(c.fileId, t.fileName, t.segments, c.seq);
    covered.add(`${c.fileId}:${c.seq}`);
    if (p.endTime !== t.segments[c.seq]!.endTime || p.text !== t.segments[c.seq]!.text)
      covered.add(`${c.fileId}:${c.seq + 1}`);
    out.push(p);
  }
  return out;
}

export async function findPassages(
  db: Db,
  userId: number,
  question: string,
  options: { fileId?: number | undefined; limit?: number } = {},
): Promise<Passage[]> {
  const limit = options.limit ?? PASSAGES_DEFAULT;
  const { terms, words } = questionTerms(question);

  if (options.fileId !== undefined) {
    // 30001 for another user's, a missing or a binned record, whatever was asked
    const t = await ownTranscriptForNotes(db, userId, options.fileId);
    if (terms.length === 0) return [];
    const candidates = t.segments.map((s, seq) => ({ fileId: t.fileId, seq, text: s.text }));
    return pick(score(candidates, terms, candidates.length), limit, () => t);
  }

  if (terms.length === 0) return [];
  const han = terms.filter((t) => /\p{Script=Han}/u.test(t));
  const parts = [
    ...(han.length ? [Prisma.sql`${han.map(lexeme).join(" | ")}::tsquery`] : []),
    ...(words.length ? [Prisma.sql`to_tsquery('english', ${words.join(" | ")}::text)`] : []),
  ];
  if (parts.length === 0) return [];
  const tsq = parts.length === 2 ? Prisma.sql`(${parts[0]!} || ${parts[1]!})` : parts[0]!;
  const [rows, [count]] = await Promise.all([
    db.$queryRaw<Candidate[]>`
      SELECT e."fileId", e.seq, e.text
      FROM search_entries e JOIN audio_records r ON r."fileId" = e."fileId"
      WHERE e."userId" = ${userId}::int AND r."userId" = ${userId}::int AND r."deletedAt" IS NULL
        AND e.kind = 'segment' AND e.tokens @@ ${tsq}
      ORDER BY ts_rank(e.tokens, ${tsq}) DESC, e."fileId" DESC, e.seq
      LIMIT ${CANDIDATES}::int`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM search_entries e JOIN audio_records r ON r."fileId" = e."fileId"
      WHERE e."userId" = ${userId}::int AND r."userId" = ${userId}::int AND r."deletedAt" IS NULL
        AND e.kind = 'segment'`,
  ]);
  const ranked = score(rows, terms, count?.n ?? rows.length);
  // The transcripts of the records the best passages come from (their times, speakers and neighbours).
  const fileIds = [...new Set(ranked.slice(0, limit * 3).map((r) => r.c.fileId))];
  const records = await db.audioRecord.findMany({
    where: { fileId: { in: fileIds }, ...visibleTo(userId) },
    select: { fileId: true, fileName: true, transcript: { select: { asrResult: true } } },
  });
  const byId = new Map(
    records.map((r) => [r.fileId, { fileName: r.fileName, segments: segmentsOf(r.transcript?.asrResult ?? []) }]),
  );
  return pick(
    ranked.filter((r) => byId.has(r.c.fileId)),
    limit,
    (id) => byId.get(id),
  );
}
