import { type Chapters, FileStatus, NOTE_JOB, noteJobId, type Segment, type TranslationNote } from "@yuelu/contracts";
import { chunkSegments, createNoteTask, pieceTokens } from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNotesWorker } from "../../apps/worker/src/notes-worker.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { seedRecord, seedUser } from "../helpers/factories.ts";
import { type FakeLlm, type FakeLlmRequest, promptLines, startFakeLlm } from "../helpers/fake-llm.ts";
import { waitFor } from "../helpers/tasks.ts";

/**
 * A 5-hour meeting (3 600 segments of 5 s) through the notes job with the default context (8 192 tokens):
 * every call fits it (the fake server refuses one that does not), every segment is sent exactly once, and the
 * pieces' answers are merged in order.
 */

const CONTEXT = 8192;
const silent = { info() {}, warn() {}, error() {} };
let t: TestApp;
let fake: FakeLlm;
let worker: ReturnType<typeof startNotesWorker>;

beforeAll(async () => {
  fake = await startFakeLlm({
    contextTokens: CONTEXT,
    // the merge step joins every two adjacent chapters (keeps the even ones of what it is given)
    answer: (r: FakeLlmRequest) => {
      if (r.task !== "chapters-merge") return undefined;
      const given = JSON.parse(r.body.messages![1]!.content) as { chapters: { from: number }[] };
      return JSON.stringify({ chapters: given.chapters.filter((_, k) => k % 2 === 0) });
    },
  });
  t = await createTestApp({ LLM_URL: fake.url, LLM_CONTEXT_TOKENS: String(CONTEXT), LLM_DAILY_TOKENS: "5000000" });
  worker = startNotesWorker(
    { db: t.db, config: t.config, queues: t.queues, files: t.files, events: t.events, log: silent },
    { watchEveryMs: 200 },
  );
  await worker.waitUntilReady();
}, 120_000);
afterAll(async () => {
  await worker?.close();
  await t?.close();
  await fake?.close();
});

const TOPICS = [
  "the hiring plan for the support team and who interviews the candidates next week",
  "the spring campaign numbers, cost per lead, and which channels to drop",
  "the mobile release: crash reports, the login bug and the review queue",
];

const FIVE_HOURS: Segment[] = Array.from({ length: 3600 }, (_, i) => ({
  spkName: `Speaker ${(i % 4) + 1}`,
  startTime: i * 5000,
  endTime: i * 5000 + 4800,
  text: `About ${TOPICS[Math.floor(i / 1200)]}, point ${i}${i % 7 === 0 ? ", and one more thing to add here" : ""}.`,
}));

async function fiveHourNote(kind: "chapters" | "translation", target?: "zh") {
  const user = await seedUser(t.db);
  const record = await seedRecord(t.db, { userId: user.id, fileStatus: FileStatus.Complete, timeLen: 18_000 });
  await t.db.transcript.create({ data: { fileId: record.fileId, asrResult: FIVE_HOURS, language: "en" } });
  const { task } = await createNoteTask(t.domain, user.id, { kind, fileId: record.fileId, target });
  const mark = fake.requests.length;
  await t.queues
    .queue(QueueName.Notes)
    .add(
      NOTE_JOB,
      { taskId: task.id },
      { jobId: noteJobId(task.id), attempts: 3, backoff: { type: "fixed", delay: 50 } },
    );
  const row = await waitFor(
    "the 5-hour note",
    async () => {
      const r = await t.db.noteTask.findUnique({ where: { id: task.id } });
      return r && (r.status === 2 || r.status === -1) ? r : null;
    },
    90_000,
  );
  expect(row.errorMessage).toBeNull();
  expect(row.status).toBe(2);
  return { row, calls: fake.requests.slice(mark) };
}

describe("a 5-hour transcript", () => {
  it("is cut into pieces that each fit the context; chapters merged in order with the right times", async () => {
    const { row, calls } = await fiveHourNote("chapters");
    const pieces = chunkSegments(FIVE_HOURS, pieceTokens("chapters", CONTEXT));
    expect(pieces.length).toBeGreaterThan(5);
    const maps = calls.filter((r) => r.task === "chapters");
    expect(maps).toHaveLength(pieces.length);
    expect(calls.every((r) => r.status === 200)).toBe(true);
    for (const r of calls) {
      expect(r.promptTokens).toBeLessThanOrEqual(CONTEXT);
      // what is asked for and what may come back fit the context together
      expect(r.promptTokens + (r.body.max_tokens ?? 0)).toBeLessThanOrEqual(CONTEXT);
    }
    // every segment sent exactly once, in order, piece by piece
    const sent = maps.map((r) => promptLines(r.body.messages ?? []).map((l) => l.index));
    expect(sent.map((s) => [s[0], s.at(-1)])).toEqual(pieces.map((p) => [p.from, p.to]));
    expect(sent.flat()).toEqual(FIVE_HOURS.map((_, i) => i));

    // the fake makes a chapter per 8 lines of each piece; the merge keeps every other one of what it is given
    const merges = calls.filter((r) => r.task === "chapters-merge");
    expect(merges.length).toBeGreaterThanOrEqual(1);
    const mapped = pieces.flatMap((p) => {
      const starts: number[] = [];
      for (let i = p.from; i <= p.to; i += 8) starts.push(i);
      return starts;
    });
    const given = merges.map((r) => JSON.parse(r.body.messages![1]!.content).chapters as { from: number }[]);
    expect(given.flat().map((c) => c.from)).toEqual(mapped);
    const expected = given.flatMap((window) => window.filter((_, k) => k % 2 === 0).map((c) => c.from));

    const chapters = (row.result as Chapters).chapters;
    expect(row.result).toMatchObject({ source: "llm" });
    expect(chapters.map((c) => c.from)).toEqual(expected);
    chapters.forEach((c, k) => {
      const next = chapters[k + 1];
      expect(c.to).toBe(next ? next.from - 1 : FIVE_HOURS.length - 1);
      expect(c.startTime).toBe(FIVE_HOURS[c.from]!.startTime);
      expect(c.endTime).toBe(FIVE_HOURS[c.to]!.endTime);
      expect(c.title).toBe(`Topic ${c.from}`);
      expect(c.gist.length).toBeGreaterThanOrEqual(1);
      expect(c.gist.length).toBeLessThanOrEqual(2);
    });
    expect(chapters.at(-1)!.endTime).toBe(3599 * 5000 + 4800);
    expect(row.progress).toBe(100);
  }, 120_000);

  it("is translated piece by piece, keeping every index and time", async () => {
    const { row, calls } = await fiveHourNote("translation", "zh");
    const pieces = chunkSegments(FIVE_HOURS, pieceTokens("translation", CONTEXT));
    expect(calls.map((r) => r.task)).toEqual(pieces.map(() => "translation"));
    for (const r of calls) expect(r.promptTokens + (r.body.max_tokens ?? 0)).toBeLessThanOrEqual(CONTEXT);
    const note = row.result as TranslationNote;
    expect(note.segments).toHaveLength(FIVE_HOURS.length);
    note.segments.forEach((s, i) => {
      expect(s).toEqual({
        index: i,
        startTime: FIVE_HOURS[i]!.startTime,
        endTime: FIVE_HOURS[i]!.endTime,
        text: `ZH: ${FIVE_HOURS[i]!.text}`,
      });
    });
  }, 120_000);
});
