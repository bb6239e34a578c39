import type { Db } from "@yuelu/db";
import type { DomainEvent } from "@yuelu/runtime";
import { segmentsOf } from "../records/segments.ts";
import type { Tx } from "../transaction.ts";
import { EXACT_PREFIX, hanRuns, RECORD_LEXEME, tokenize, trigrams, WORD_PREFIX } from "./tokenize.ts";

/** Default speaker labels ('说话人1', 'Speaker 1') are not names a user searches for; given names are. */
const DEFAULT_SPEAKER = /^(?:说话人|Speaker )\d{1,4}$/;

interface Row {
  kind: "segment" | "name" | "summary";
  seq: number;
  startTime: number | null;
  speaker: string;
  text: string;
}

/** The transcript's segments as the page shows them (segmentsOf): `seq` is the page's index of the segment. */
function segmentRows(stored: unknown): Row[] {
  return segmentsOf(stored).flatMap((s, seq) =>
    s.text.trim() === "" && s.spkName === ""
      ? []
      : [{ kind: "segment" as const, seq, startTime: s.startTime, speaker: s.spkName, text: s.text }],
  );
}

/**
 * A record row's tokens stay well under PostgreSQL's 1 MB tsvector limit (a larger one would fail the
 * transcript's own write): a very long transcript gets several record rows (seq 0, 1, …), each
 * covering whole rows, so every single row's words still lie inside one record row. (A 1-hour
Chinese recording's row is ~20 000 lexemes, ~200 KB.)
 */
const RECORD_ROW_BYTES = 512 * 1024;

export interface RecordRow {
  /** the covered rows' searchable texts ("speaker text"), NFKC and lower-cased, one per line */
  text: string;
  /** lexemes as they are: the marker, prefixed words, bigrams, trigrams, characters, English words as typed */
  lexemes: string[];
  /** the English words, space-separated, for to_tsvector('english', …) (stemmed as on the rows) */
  latin: string;
}

/**
 * The `kind = 'record'` rows of a record (docs/search.md "Index"): one lexeme set per record, each
 * lexeme once and without positions (so the row stays small), that holds a lexeme when one of
 * its rows does: every bigram and character of its Han runs, every trigram (a three-character run
 * is then checked by the index itself), each segmenter word prefixed (the word score), each
 * English word stemmed and, prefixed, as typed; its texts one per line, where the query checks
 * longer Han runs and the phrase — a line break is no Han character, so a run never matches
 * across two segments, as it never does on the segment rows. `lines` are the rows' texts as
 * tokenised (a given speaker name in front); bench/search.mjs builds its library with this too.
 */
export function recordRows(lines: string[]): RecordRow[] {
  const out: RecordRow[] = [];
  let texts: string[] = [];
  let lexemes = new Set<string>([RECORD_LEXEME]);
  let latin = new Set<string>();
  let bytes = 0;
  const flush = () => {
    if (texts.length === 0) return;
    out.push({ text: texts.join("\n"), lexemes: [...lexemes], latin: [...latin].join(" ") });
    texts = [];
    lexemes = new Set([RECORD_LEXEME]);
    latin = new Set();
    bytes = 0;
  };
  const add = (set: Set<string>, token: string, entries = 1) => {
    // PostgreSQL refuses a lexeme of 2 KB or more; no real word is near that
    if (token === "" || token.length > 200 || set.has(token)) return;
    set.add(token);
    // a lexeme without positions costs its bytes and a 4-byte entry (an English word is there twice:
    // stemmed, at most as long, and as typed with its 2-byte prefix)
    bytes += entries * (Buffer.byteLength(token) + 6);
  };
  for (const line of lines) {
    if (bytes > RECORD_ROW_BYTES) flush();
    const normal = line.normalize("NFKC").toLowerCase();
    texts.push(normal.replace(/\n/g, " "));
    const t = tokenize(line);
    for (const w of t.words.split(" ")) if (w) add(lexemes, `${WORD_PREFIX}${w}`);
    for (const g of t.grams.split(" ")) add(lexemes, g);
    for (const c of t.chars.split(" ")) add(lexemes, c);
    for (const run of hanRuns(line)) for (const g of trigrams(run)) add(lexemes, g);
    for (const l of t.latin.toLowerCase().split(/\s+/)) {
      add(latin, l, 2);
      if (l && l.length <= 200) lexemes.add(`${EXACT_PREFIX}${l}`);
    }
  }
  flush();
  return out;
}

/**
 * Rewrites a record's search rows from its current transcript and name (docs/search.md "Index").
 * Call it inside the transaction that writes the transcript, a speaker name, the summary or the
 * record's name, so the index commits (or rolls back) with the write. A record without a
 * transcript has no rows. Returns the number of rows written.
 */
export async function reindexRecord(tx: Tx | Db, fileId: number): Promise<number> {
  await tx.$executeRaw`DELETE FROM search_entries WHERE "fileId" = ${fileId}::int`;
  const [record] = await tx.$queryRaw<{ userId: number; fileName: string; asrResult: unknown; abstracts: string }[]>`
    SELECT r."userId", r."fileName", t."asrResult", t.abstracts
    FROM audio_records r JOIN transcripts t ON t."fileId" = r."fileId"
    WHERE r."fileId" = ${fileId}::int`;
  if (!record) return 0;
  const rows: Row[] = [
    { kind: "name", seq: 0, startTime: null, speaker: "", text: record.fileName },
    ...(record.abstracts.trim()
      ? [{ kind: "summary" as const, seq: 0, startTime: null, speaker: "", text: record.abstracts }]
      : []),
    ...segmentRows(record.asrResult),
  ];
  const kinds: string[] = [];
  const seqs: number[] = [];
  const starts: (number | null)[] = [];
  const speakers: string[] = [];
  const texts: string[] = [];
  const words: string[] = [];
  const grams: string[] = [];
  const chars: string[] = [];
  const latins: string[] = [];
  const lines: string[] = [];
  for (const row of rows) {
    // A given speaker name is searchable with the segment's words (and verified against both).
    const named = row.speaker !== "" && !DEFAULT_SPEAKER.test(row.speaker) ? `${row.speaker} ` : "";
    const t = tokenize(`${named}${row.text}`);
    kinds.push(row.kind);
    seqs.push(row.seq);
    starts.push(row.startTime);
    speakers.push(named === "" ? "" : row.speaker);
    texts.push(row.text);
    words.push(t.words);
    grams.push(t.grams);
    chars.push(t.chars);
    latins.push(t.latin);
    lines.push(`${named}${row.text}`);
  }
  // One statement for the whole record: a 3-hour transcript is ~2 000 rows.
  const written = await tx.$executeRaw`
    INSERT INTO search_entries ("fileId", "userId", kind, seq, "startTime", speaker, text, tokens)
    SELECT ${fileId}::int, ${record.userId}::int, k, s, st, sp, tx,
      setweight(to_tsvector('simple', w), 'A') || setweight(to_tsvector('english', l), 'A')
        || setweight(to_tsvector('simple', g), 'C') || setweight(to_tsvector('simple', c), 'D')
    FROM unnest(${kinds}::text[], ${seqs}::int[], ${starts}::int[], ${speakers}::text[], ${texts}::text[],
      ${words}::text[], ${grams}::text[], ${chars}::text[], ${latins}::text[]) AS u(k, s, st, sp, tx, w, g, c, l)`;
  let recordRowsWritten = 0;
  for (const [seq, r] of recordRows(lines).entries()) {
    recordRowsWritten += await tx.$executeRaw`
      INSERT INTO search_entries ("fileId", "userId", kind, seq, "startTime", speaker, text, tokens)
      VALUES (${fileId}::int, ${record.userId}::int, 'record', ${seq}::int, NULL, '', ${r.text}::text,
        array_to_tsvector(${r.lexemes}::text[] || tsvector_to_array(to_tsvector('english', ${r.latin}::text))))`;
  }
  return written + recordRowsWritten;
}

/**
 * transact()'s search handler: rewrites the rows of every record whose transcript or name an event of
 * the transaction says changed, once each, inside it (docs/search.md "Index").
 */
export async function indexChangedRecords(tx: Tx, events: readonly DomainEvent[]): Promise<void> {
  const fileIds = new Set<number>();
  for (const event of events) {
    if (event.type === "transcript.changed" || event.type === "record.changed") fileIds.add(event.fileId);
  }
  for (const fileId of fileIds) await reindexRecord(tx, fileId);
}

/**
 * Records with a transcript and no record row (transcribed before search existed, or indexed
 * before record rows existed, or by a process that predates them: every indexed record has at
 * least one, its name being always indexed), indexed `batch` at a time; idempotent. Returns how
 * many it indexed.
 */
export async function backfillSearchIndex(db: Db, options: { batch?: number; maxBatches?: number } = {}) {
  const batch = options.batch ?? 100;
  const maxBatches = options.maxBatches ?? 10;
  let indexed = 0;
  for (let i = 0; i < maxBatches; i += 1) {
    const due = await db.$queryRaw<{ fileId: number }[]>`
      SELECT t."fileId" FROM transcripts t
      WHERE NOT EXISTS (SELECT 1 FROM search_entries e WHERE e."fileId" = t."fileId" AND e.kind = 'record')
      ORDER BY t."fileId" LIMIT ${batch}::int`;
    for (const { fileId } of due) {
      // Each record in its own transaction, locking its transcript, so a concurrent edit's reindex is not undone.
      await db.$transaction(async (tx) => {
        const locked = await tx.$queryRaw<{ fileId: number }[]>`
          SELECT "fileId" FROM transcripts WHERE "fileId" = ${fileId}::int FOR UPDATE`;
        const has = await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM search_entries WHERE "fileId" = ${fileId}::int AND kind = 'record'`;
        if (locked.length > 0 && (has[0]?.n ?? 0) === 0) await reindexRecord(tx, fileId);
      });
      indexed += 1;
    }
    if (due.length < batch) break;
  }
  return indexed;
}
