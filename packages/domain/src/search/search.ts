import { type Db, Prisma } from "@yuelu/db";
import {
  bigrams,
  blankPunctuation,
  EXACT_PREFIX,
  lexeme,
  parseQuery,
  RECORD_LEXEME,
  trigrams,
  WORD_PREFIX,
} from "./tokenize.ts";

/** A record's hits shown at most (its best ones, listed in time order): docs/search.md. */
export const SEARCH_HITS_PER_RECORD = 5;

export interface SearchHit {
  /** ms from the start of the recording, like asrResult's startTime */
  startTime: number;
  text: string;
  /** [start, end) UTF-16 offsets of the matched words in `text` */
  highlights: [number, number][];
}

export interface SearchResultRecord {
  fileId: number;
  fileName: string;
  hits: SearchHit[];
  /** how many segments match (hits shows the best SEARCH_HITS_PER_RECORD) */
  hitCount: number;
  /** where the record matched: "segment", "name", "summary" */
  matchedIn: ("segment" | "name" | "summary")[];
  /** [start, end) offsets of the matched words in fileName */
  nameHighlights: [number, number][];
}

export interface SearchQuery {
  q: string;
  page: number;
  pageSize: number;
  /** also records in the recycle bin */
  includeDeleted?: boolean;
}

const START = "\uE000";
const STOP = "\uE001";

/** Offsets of every occurrence of each needle (Han runs are matched case-sensitively, they have no case). */
function substringRanges(text: string, needles: string[]): [number, number][] {
  const out: [number, number][] = [];
  for (const needle of needles) {
    if (!needle) continue;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      out.push([at, at + needle.length]);
    }
  }
  return out;
}

/** ts_headline's marked text → the plain text and the marked ranges. */
function markedRanges(marked: string): [number, number][] {
  const out: [number, number][] = [];
  let plain = 0;
  let open = -1;
  for (const ch of marked) {
    if (ch === START) open = plain;
    else if (ch === STOP) {
      if (open >= 0) out.push([open, plain]);
      open = -1;
    } else plain += ch.length;
  }
  return out;
}

/** Sorted, overlapping ranges merged. */
function merge(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * The user's records whose transcript, name, given speaker names or summary match `q`
 * (docs/search.md): records ordered by their best match, then newest; `total` counts records.
 * Only the user's own records, and those in the recycle bin only with `includeDeleted`.
 */
export async function searchRecords(
  db: Db,
  userId: number,
  query: SearchQuery,
): Promise<{ total: number; list: SearchResultRecord[] }> {
  const parsed = parseQuery(query.q);
  const { hanQuery, latin, phrase } = parsed;
  // Runs of three or more characters: the AND of their bigrams may come from different places
  // (checked on each segment row in the second step).
  const verify = parsed.han.filter((run) => [...run].length >= 3);
  const deleted = query.includeDeleted === true;
  const offset = (query.page - 1) * query.pageSize;

  // Written out in the statement (not a CASE), so the planner sees a plain tsquery for the GIN index.
  const tsq =
    hanQuery === ""
      ? Prisma.sql`plainto_tsquery('english', ${latin}::text)`
      : latin === ""
        ? Prisma.sql`${hanQuery}::tsquery`
        : Prisma.sql`(${hanQuery}::tsquery && plainto_tsquery('english', ${latin}::text))`;
  // A Han run the segmenter found as a word of the row (weight A) ranks above one found only inside
  // other words (bigrams, weight C): a weighted @@, far cheaper per row than ts_rank.
  const wordRuns = parsed.han.filter((run) => [...run].length >= 2).map((run) => `'${run}':A`);
  const wordScore = (tokens: Prisma.Sql) =>
    wordRuns.length > 0
      ? Prisma.sql`CASE WHEN ${tokens} @@ ${wordRuns.join(" & ")}::tsquery THEN 2 ELSE 0 END`
      : Prisma.sql`0`;
  // A row's text as the Han runs are checked in it (a given speaker name is searchable with the segment's words).
  const verified = (text: Prisma.Sql) =>
    verify.length > 0
      ? Prisma.sql`AND NOT EXISTS (SELECT 1 FROM unnest(${verify}::text[]) v WHERE position(v in ${text}) = 0)`
      : Prisma.empty;
  // On record rows (docs/search.md "Index"): a run of three or more characters is the AND of its
  // trigrams (exact for three), the rest as on the rows; RECORD_LEXEME makes the GIN index return
  // record rows only, so a common word touches one row per record, not one per segment.
  const recordParts = parsed.han.map((run) => {
    const grams = [...run].length >= 3 ? trigrams(run) : bigrams(run);
    return grams.length === 0 ? lexeme(run) : grams.map(lexeme).join(" & ");
  });
  const recordHan = [...recordParts, lexeme(RECORD_LEXEME)].join(" & ");
  // (Stop words only make an empty tsquery: ANDed with the marker it would match every record.)
  const rtsq =
    latin === ""
      ? Prisma.sql`${recordHan}::tsquery`
      : parsed.han.length === 0
        ? Prisma.sql`(CASE WHEN numnode(plainto_tsquery('english', ${latin}::text)) = 0 THEN ''::tsquery
            ELSE plainto_tsquery('english', ${latin}::text) && ${recordHan}::tsquery END)`
        : Prisma.sql`(${recordHan}::tsquery && plainto_tsquery('english', ${latin}::text))`;
  // Longer runs are checked on the text (one line per row, lower-cased: a match never spans two rows).
  const longRuns = parsed.han.filter((run) => [...run].length >= 4);
  const recordVerified =
    longRuns.length > 0
      ? Prisma.sql`AND NOT EXISTS (SELECT 1 FROM unnest(${longRuns}::text[]) v WHERE position(v in c.text) = 0)`
      : Prisma.empty;
  // The word score from the index too (the record's lexemes are never read from the table).
  const recordWords = parsed.han.filter((run) => [...run].length >= 2).map((run) => lexeme(`${WORD_PREFIX}${run}`));
  const recordWordScore =
    recordWords.length > 0
      ? Prisma.sql`CASE WHEN c.id IN (SELECT w.id FROM search_entries w WHERE w."userId" = ${userId}::int
          AND w.kind = 'record' AND w.tokens @@ ${[...recordWords, lexeme(RECORD_LEXEME)].join(" & ")}::tsquery)
          THEN 2 ELSE 0 END`
      : Prisma.sql`0`;
  // The phrase: one Han run alone is in every candidate; one English word, as typed, is a lexeme
  // of the record row; anything longer is looked for in the text.
  const parts = parsed.han.length + (latin === "" ? 0 : latin.split(" ").length);
  const phraseOnRecord =
    parts === 1 && parsed.han.length === 1
      ? Prisma.sql`1`
      : parts === 1
        ? Prisma.sql`CASE WHEN c.id IN (SELECT p.id FROM search_entries p WHERE p."userId" = ${userId}::int
            AND p.kind = 'record' AND p.tokens @@ ${`${lexeme(`${EXACT_PREFIX}${latin.toLowerCase()}`)} & ${lexeme(RECORD_LEXEME)}`}::tsquery)
            THEN 1 ELSE 0 END`
        : Prisma.sql`CASE WHEN position(${phrase}::text in c.text) > 0 THEN 1 ELSE 0 END`;
  // A query of several parts (Han runs, English words) needs them all in ONE row (docs/search.md
  // "Matching"), while the record row holds them when they are in different rows as well.
  const inOneRow =
    parts > 1
      ? Prisma.sql`AND EXISTS (SELECT 1 FROM search_entries s WHERE s."fileId" = c."fileId"
          AND s.kind IN ('segment', 'name', 'summary') AND s.tokens @@ ${tsq}
          ${verified(Prisma.sql`s.speaker || ' ' || s.text`)})`
      : Prisma.empty;

  // Two steps (docs/search.md "Speed"). c: the candidate records, from their record rows (one per
  // record, found through the GIN index on tokens: at most one row per record touched, however
  // common the word), Han runs of 4+ characters checked on its text, scored 2 for a Chinese word
  // match plus 1 for the whole query as typed; page: the records asked for, best first, then newest,
  // with `total`. m: the rows of the page's records only, read by fileId (ts_match_vq is @@ as a
  // function: the planner cannot answer it from the GIN index, which for a common word would read
  // every matching row of the table), the same checks per row; their count, kinds and best 5 hits.
  const [, , rows] = await db.$transaction([
    // The planner's cost estimate on a large index crosses jit_above_cost, and compiling costs
    // more than the query saves (measured: bench/README.md "search.mjs").
    db.$executeRaw`SET LOCAL jit = off`,
    // a query matching most of a very large library must not hold a connection for long
    db.$executeRaw`SET LOCAL statement_timeout = '10s'`,
    db.$queryRaw<
      {
        fileId: number;
        fileName: string;
        hitCount: number;
        kinds: string[] | null;
        total: number;
        hits: { startTime: number; text: string }[] | null;
      }[]
    >`
    WITH c AS MATERIALIZED (
      SELECT c."fileId", max(${recordWordScore} + ${phraseOnRecord}) AS best
      FROM search_entries c
      WHERE c."userId" = ${userId}::int AND c.kind = 'record' AND c.tokens @@ ${rtsq} ${recordVerified}
      GROUP BY c."fileId"
    ), page AS (
      SELECT c."fileId", r."fileName", c.best, r."createdAt", (count(*) OVER ())::int AS total
      FROM c JOIN audio_records r ON r."fileId" = c."fileId"
      WHERE r."userId" = ${userId}::int AND (${deleted}::boolean OR r."deletedAt" IS NULL) ${inOneRow}
      ORDER BY c.best DESC, r."createdAt" DESC, c."fileId" DESC
      LIMIT ${query.pageSize}::int OFFSET ${offset}::int
    ), m AS MATERIALIZED (
      SELECT s."fileId", s.kind, s.seq,
        ${wordScore(Prisma.sql`s.tokens`)} + CASE WHEN position(${phrase}::text in lower(s.text)) > 0 THEN 1 ELSE 0 END AS score
      FROM page JOIN search_entries s ON s."fileId" = page."fileId" AND s.kind IN ('segment', 'name', 'summary')
      WHERE ts_match_vq(s.tokens, ${tsq}) ${verified(Prisma.sql`s.speaker || ' ' || s.text`)}
    ), g AS (
      SELECT m."fileId", (count(*) FILTER (WHERE m.kind = 'segment'))::int AS "hitCount",
        array_agg(DISTINCT m.kind) AS kinds
      FROM m GROUP BY m."fileId"
    ), hits AS (
      SELECT * FROM (
        SELECT m."fileId", m.seq,
          row_number() OVER (PARTITION BY m."fileId" ORDER BY m.score DESC, m.seq) AS n
        FROM m WHERE m.kind = 'segment'
      ) x WHERE x.n <= ${SEARCH_HITS_PER_RECORD}::int
    )
    SELECT page."fileId", page."fileName", coalesce(g."hitCount", 0) AS "hitCount", g.kinds, page.total,
      (SELECT json_agg(json_build_object('startTime', coalesce(e."startTime", 0), 'text', e.text) ORDER BY e."startTime", e.seq)
        FROM hits h JOIN search_entries e ON e."fileId" = h."fileId" AND e.kind = 'segment' AND e.seq = h.seq
        WHERE h."fileId" = page."fileId") AS hits
    FROM page LEFT JOIN g ON g."fileId" = page."fileId"
    ORDER BY page.best DESC, page."createdAt" DESC, page."fileId" DESC`,
  ]);
  if (rows.length === 0) {
    if (offset === 0) return { total: 0, list: [] };
    // A page past the end still reports how many records match.
    const again = await searchRecords(db, userId, { ...query, page: 1, pageSize: 1 });
    return { total: again.total, list: [] };
  }
  const hits = rows.flatMap((r) => (r.hits ?? []).map((h) => ({ fileId: r.fileId, ...h })));

  // English words are highlighted where PostgreSQL's stemmer matched them (ts_headline, on the
  // texts with punctuation blanked as the index saw them); Chinese runs where they occur.
  const texts = [...hits.map((h) => h.text), ...rows.map((r) => r.fileName)];
  const [headlines] = latin
    ? await db.$queryRaw<{ marked: string[] }[]>`
        SELECT array_agg(ts_headline('english', n, plainto_tsquery('english', ${latin}::text),
          ${`StartSel=${START}, StopSel=${STOP}, HighlightAll=true`}::text) ORDER BY i) AS marked
        FROM unnest(${texts.map(blankPunctuation)}::text[]) WITH ORDINALITY AS u(n, i)`
    : [];
  const highlightsOf = (text: string, i: number) => {
    const marked = headlines?.marked[i];
    return merge([...substringRanges(text, parsed.han), ...(marked ? markedRanges(marked) : [])]);
  };

  const byFile = new Map<number, SearchHit[]>();
  for (const [i, h] of hits.entries()) {
    const list = byFile.get(h.fileId) ?? [];
    list.push({ startTime: h.startTime, text: h.text, highlights: highlightsOf(h.text, i) });
    byFile.set(h.fileId, list);
  }
  const order = ["segment", "name", "summary"] as const;
  return {
    total: rows[0]?.total ?? 0,
    list: rows.map((r, i) => ({
      fileId: r.fileId,
      fileName: r.fileName,
      hits: byFile.get(r.fileId) ?? [],
      hitCount: r.hitCount,
      matchedIn: order.filter((k) => r.kinds?.includes(k)),
      nameHighlights: r.kinds?.includes("name") ? highlightsOf(r.fileName, hits.length + i) : [],
    })),
  };
}
