import {
  type AnswerNote,
  type Chapters,
  FileStatus,
  NOTE_JOB,
  noteJobId,
  type Passage,
  type Segment,
  type SummaryNote,
  type TranslationNote,
} from "@yuelu/contracts";
import {
  cancelNoteTask,
  chunkSegments,
  createNoteTask,
  type NewNoteTask,
  noteTaskView,
  offlineActionItems,
  offlineChapters,
  pieceTokens,
} from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CallLimit, OpenAiLlm, ResponseFormatMemory } from "../../apps/worker/src/engines/llm/index.ts";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { runNoteJob } from "../../apps/worker/src/jobs/notes.ts";
import { startNotesWorker } from "../../apps/worker/src/notes-worker.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { seedRecord, seedUser } from "../helpers/factories.ts";
import {
  type FakeLlm,
  type FakeLlmRequest,
  type FakeLlmResponseFormat,
  promptLines,
  startFakeLlm,
} from "../helpers/fake-llm.ts";
import { waitFor } from "../helpers/tasks.ts";

const CONTEXT = 1024;
const silent = { info() {}, warn() {}, error() {} };

let t: TestApp;
let fake: FakeLlm;
/** a test's own answers (the fake's defaults otherwise) */
let override: ((request: FakeLlmRequest) => string | undefined) | undefined;
let worker: ReturnType<typeof startNotesWorker>;

beforeAll(async () => {
  fake = await startFakeLlm({ contextTokens: CONTEXT, answer: (request) => override?.(request) });
  t = await createTestApp({
    LLM_URL: fake.url,
    LLM_CONTEXT_TOKENS: String(CONTEXT),
    LLM_DAILY_TOKENS: "5000000",
  });
  worker = startNotesWorker(
    { db: t.db, config: t.config, queues: t.queues, files: t.files, events: t.events, log: silent },
    { watchEveryMs: 100 },
  );
  await worker.waitUntilReady();
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
  await fake?.close();
});
afterEach(() => {
  override = undefined;
  fake.mode("ok");
});

const FILLER = [
  "We looked at the numbers for the spring campaign and the cost per lead.",
  "The design review went well and the new layout tested better with users.",
  "Support tickets are down a little since the last release of the app.",
  "The budget for the next quarter is still open and needs a decision.",
];

/** A constructed meeting: `n` segments of 5 s, speakers taking turns; `said` puts given texts at indexes. */
function meeting(n: number, said: Record<number, [string, string]> = {}): Segment[] {
  const speakers = ["Ann", "Bob", "Carol"];
  return Array.from({ length: n }, (_, i) => ({
    spkName: said[i]?.[0] ?? speakers[i % 3]!,
    startTime: i * 5000,
    endTime: i * 5000 + 4500,
    text: said[i]?.[1] ?? `${FILLER[i % FILLER.length]} Point ${i}.`,
  }));
}

async function seedTranscript(userId: number, segments: Segment[], language = "en") {
  const record = await seedRecord(t.db, { userId, fileStatus: FileStatus.Complete, fileName: "weekly.mp3" });
  await t.db.transcript.create({ data: { fileId: record.fileId, asrResult: segments, language } });
  return record.fileId;
}

async function startNote(userId: number, input: NewNoteTask): Promise<number> {
  const { task } = await createNoteTask(t.domain, userId, input);
  // as the API queues it, with a short backoff so retries do not slow the tests
  await t.queues
    .queue(QueueName.Notes)
    .add(
      NOTE_JOB,
      { taskId: task.id },
      { jobId: noteJobId(task.id), attempts: 3, backoff: { type: "fixed", delay: 50 } },
    );
  return task.id;
}

async function ended(taskId: number) {
  return waitFor(`note task ${taskId} to end`, async () => {
    const row = await t.db.noteTask.findUnique({ where: { id: taskId } });
    return row && (row.status === 2 || row.status === -1) && row.settledAt ? row : null;
  });
}

async function budgetUsed(userId: number): Promise<number> {
  const days = await t.db.llmBudgetDay.findMany({ where: { userId } });
  return days.reduce((sum, d) => sum + d.used, 0);
}

const since = (mark: number) => fake.requests.slice(mark);
const userText = (r: FakeLlmRequest) => (r.body.messages ?? []).filter((m) => m.role === "user").map((m) => m.content);
const systemText = (r: FakeLlmRequest) => r.body.messages?.[0]?.content ?? "";

describe("summary and to-dos", () => {
  it("summarises piece by piece, merges, keeps each to-do once with its moment, and writes the abstracts (searchable)", async () => {
    const user = await seedUser(t.db);
    const draft = meeting(70);
    const drafted = chunkSegments(draft, pieceTokens("summary", CONTEXT));
    expect(drafted.length).toBeGreaterThanOrEqual(3);
    const carol = drafted[0]!.from + 5;
    const dan = drafted[1]!.from + 3;
    const again = drafted[2]!.from + 3;
    const segments = meeting(70, {
      [carol]: ["Carol", "I'll send the report to everyone by Friday."],
      [dan]: ["Dan", "Dan will book the big room for the offsite."],
      [again]: ["Carol", "I'll send the report to everyone by Friday!"],
    });
    // the three said lines fall in three different pieces (as cut from the final text)
    const cut = chunkSegments(segments, pieceTokens("summary", CONTEXT));
    const pieceOf = (i: number) => cut.findIndex((p) => p.from <= i && i <= p.to);
    expect(new Set([pieceOf(carol), pieceOf(dan), pieceOf(again)]).size).toBe(3);
    const fileId = await seedTranscript(user.id, segments);
    const mark = fake.requests.length;
    const taskId = await startNote(user.id, { kind: "summary", fileId });
    const row = await ended(taskId);
    expect(row.status).toBe(2);

    const pieces = cut;
    const calls = since(mark);
    const maps = calls.filter((r) => r.task === "summary");
    expect(maps).toHaveLength(pieces.length);
    // every segment sent once, in order, as `[index] speaker: text`, each call within the context
    expect(maps.flatMap((r) => promptLines(r.body.messages ?? []).map((l) => l.index))).toEqual(
      segments.map((_, i) => i),
    );
    expect(userText(maps[0]!)[0]).toContain(`[${carol}] Carol: I'll send the report to everyone by Friday.`);
    for (const r of calls) {
      expect(systemText(r).split("\n").slice(0, 2)).toEqual([`YUELU-TASK: ${r.task}`, "YUELU-LANG: en"]);
      expect(r.promptTokens).toBeLessThanOrEqual(CONTEXT);
    }
    expect(calls.filter((r) => r.task === "summary-merge")).toHaveLength(1);

    const note = row.result as SummaryNote;
    expect(note.abstracts).toBe(pieces.map((p) => `Summary of ${p.to - p.from + 1} segments`).join(" "));
    expect(note.todos).toEqual([
      {
        text: "I'll send the report to everyone by Friday.",
        owner: "Carol",
        due: "Friday",
        segmentIndex: carol,
        startTime: carol * 5000,
      },
      {
        text: "Dan will book the big room for the offsite.",
        owner: "Dan",
        due: null,
        segmentIndex: dan,
        startTime: dan * 5000,
      },
    ]);
    const transcript = await t.db.transcript.findUniqueOrThrow({ where: { fileId } });
    expect(transcript.abstracts).toBe(note.abstracts);
    const indexed = await t.db.$queryRaw<{ text: string }[]>`
      SELECT text FROM search_entries WHERE "fileId" = ${fileId} AND kind = 'summary'`;
    expect(indexed.map((r) => r.text)).toEqual([note.abstracts]);

    // the tokens the server counted, and the day's budget settled to exactly them
    const counted = calls.reduce((sum, r) => sum + r.promptTokens, 0);
    expect(row.tokensUsed).toBeGreaterThan(counted);
    expect(row.tokensUsed).toBeLessThan(row.tokensReserved);
    expect(await budgetUsed(user.id)).toBe(row.tokensUsed);
    expect(row.progress).toBe(100);
  });

  it("writes a Chinese transcript's to-dos in Chinese, owner and 周五 as said", async () => {
    const user = await seedUser(t.db);
    const segments: Segment[] = Array.from({ length: 12 }, (_, i) => ({
      spkName: i % 2 ? "王芳" : "李雷",
      startTime: i * 4000,
      endTime: i * 4000 + 3000,
      text: i === 4 ? "这份报告我负责，周五之前发给大家。" : `我们讨论了第${i}个问题，大家都同意现在的方案。`,
    }));
    const fileId = await seedTranscript(user.id, segments, "zh");
    const row = await ended(await startNote(user.id, { kind: "summary", fileId }));
    expect(row.status).toBe(2);
    expect(row.result).toEqual({
      abstracts: "共 12 段的摘要",
      todos: [{ text: segments[4]!.text, owner: "李雷", due: "周五", segmentIndex: 4, startTime: 16_000 }],
    });
  });
});

describe("chapters and translation", () => {
  it("makes Chinese chapters with titles, times and at most two gist lines", async () => {
    const user = await seedUser(t.db);
    const segments: Segment[] = Array.from({ length: 12 }, (_, i) => ({
      spkName: "甲",
      startTime: i * 3000,
      endTime: i * 3000 + 2500,
      text: `第${i}句。第${i}事！好？`,
    }));
    const fileId = await seedTranscript(user.id, segments, "zh");
    const mark = fake.requests.length;
    const row = await ended(await startNote(user.id, { kind: "chapters", fileId }));
    expect(row.status).toBe(2);
    expect(since(mark).map((r) => r.task)).toEqual(["chapters"]);
    const chapters = (row.result as Chapters).chapters;
    expect(row.result).toMatchObject({ source: "llm" });
    expect(chapters.map((c) => [c.from, c.to, c.startTime, c.endTime, c.title])).toEqual([
      [0, 7, 0, 23_500, "话题0"],
      [8, 11, 24_000, 35_500, "话题8"],
    ]);
    expect(chapters[1]!.gist).toEqual(["第8句。", "第8事！"]);
  });

  it("translates every segment under its own index and times; an empty one is not sent", async () => {
    const user = await seedUser(t.db);
    const segments = meeting(40);
    segments[7] = { ...segments[7]!, text: "  " };
    const fileId = await seedTranscript(user.id, segments);
    const mark = fake.requests.length;
    const row = await ended(await startNote(user.id, { kind: "translation", fileId, target: "zh" }));
    expect(row.status).toBe(2);
    const calls = since(mark);
    expect(calls.length).toBe(chunkSegments(segments, pieceTokens("translation", CONTEXT)).length);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every((r) => systemText(r).includes("YUELU-LANG: zh"))).toBe(true);
    expect(calls.flatMap((r) => promptLines(r.body.messages ?? []).map((l) => l.index))).toEqual(
      segments.map((_, i) => i).filter((i) => i !== 7),
    );
    const note = row.result as TranslationNote;
    expect(note.target).toBe("zh");
    expect(note.segments).toEqual(
      segments.map((s, index) => ({
        index,
        startTime: s.startTime,
        endTime: s.endTime,
        text: index === 7 ? "" : `ZH: ${s.text}`,
      })),
    );
  });

  it("rejects a translation that leaves a segment out (asked once more, then failed)", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(6));
    override = (r) =>
      r.task === "translation" ? JSON.stringify({ translations: [{ i: 0, text: "只有一段" }] }) : undefined;
    const mark = fake.requests.length;
    const row = await ended(await startNote(user.id, { kind: "translation", fileId, target: "zh" }));
    expect(row).toMatchObject({ status: -1, errorCode: 40005, errorReason: "llm-bad-answer" });
    expect(row.errorMessage).toMatch(/leaves out 5 segment\(s\): 1, 2, 3, 4, 5/);
    expect(since(mark)).toHaveLength(2);
  });
});

describe("answers", () => {
  const passages = (fileId: number): Passage[] =>
    [0, 1, 2].map((i) => ({
      fileId,
      fileName: "weekly.mp3",
      segmentIndex: i * 10,
      startTime: i * 65_000,
      endTime: i * 65_000 + 4000,
      speaker: "Ann",
      text: `The launch moves to May, point ${i}.`,
    }));

  it("answers from the numbered passages and cites them with their numbers", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(30));
    const mark = fake.requests.length;
    const taskId = await startNote(user.id, {
      kind: "answer",
      fileId,
      question: "When is the launch?",
      passages: passages(fileId),
    });
    const row = await ended(taskId);
    expect(row.status).toBe(2);
    expect(userText(since(mark)[0]!)[0]).toContain("[2] (01:05) Ann: The launch moves to May, point 1.");
    const note = row.result as AnswerNote;
    expect(note.answer).toBe("According to the recording [1][2]: The launch moves to May, point 0.");
    expect(note.citations).toEqual([
      { ...passages(fileId)[0], n: 1 },
      { ...passages(fileId)[1], n: 2 },
    ]);
  });

  it("rejects an answer citing a passage that was not given", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(30));
    override = () => JSON.stringify({ answer: "It is in [7].", citations: [7] });
    const mark = fake.requests.length;
    const row = await ended(
      await startNote(user.id, { kind: "answer", fileId, question: "When?", passages: passages(fileId) }),
    );
    expect(row).toMatchObject({ status: -1, errorReason: "llm-bad-answer" });
    expect(row.errorMessage).toMatch(/cites passage 7, but only passages 1–3 were given/);
    expect(since(mark)).toHaveLength(2);
  });
});

describe("models that answer in other forms (issue 41)", () => {
  const CAROL = "I'll send the report to everyone by Friday.";
  const withTodo = (n: number) => meeting(n, { 4: ["Carol", CAROL] });
  const formatOf = (r: FakeLlmRequest) => (r.body.response_format as { type?: string } | undefined)?.type ?? null;
  const passages = (fileId: number): Passage[] =>
    [0, 1].map((i) => ({
      fileId,
      fileName: "weekly.mp3",
      segmentIndex: i,
      startTime: i * 5000,
      endTime: i * 5000 + 4000,
      speaker: "Ann",
      text: `The launch moves to May, point ${i}.`,
    }));

  it("asks for the answer's JSON schema as structured output, and reads JSON in a fence with prose around it", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, withTodo(9));
    fake.mode("fenced");
    const mark = fake.requests.length;
    const row = await ended(await startNote(user.id, { kind: "summary", fileId }));
    expect(row.status).toBe(2);
    expect(row.result).toEqual({
      abstracts: "Summary of 9 segments",
      todos: [{ text: CAROL, owner: "Carol", due: "Friday", segmentIndex: 4, startTime: 20_000 }],
    });
    const calls = since(mark);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: {
        name: "summary",
        strict: true,
        schema: { type: "object", required: ["summary", "todos"], additionalProperties: false },
      },
    });
  });

  it("a summary in prose is kept as the summary (chatter cut); its to-dos are found offline, and the note says so", async () => {
    const user = await seedUser(t.db);
    const segments = withTodo(9);
    const fileId = await seedTranscript(user.id, segments);
    fake.mode("prose");
    const mark = fake.requests.length;
    const row = await ended(await startNote(user.id, { kind: "summary", fileId }));
    expect(row.status).toBe(2);
    const todos = offlineActionItems(segments);
    expect(todos.map((todo) => todo.text)).toEqual([CAROL]);
    expect(row.result).toEqual({
      abstracts: `The meeting ran over 9 segments, opening with "${segments[0]!.text}"`,
      todos,
      fallback: { abstracts: "prose", todos: "offline" },
    });
    // asked once more with the reminder before the prose was taken
    expect(since(mark).map((r) => r.task)).toEqual(["summary", "summary"]);
    const transcript = await t.db.transcript.findUniqueOrThrow({ where: { fileId } });
    expect(transcript.abstracts).toBe((row.result as SummaryNote).abstracts);
  });

  it("a long transcript summarised in prose piece by piece is merged from the prose", async () => {
    const user = await seedUser(t.db);
    const segments = meeting(70);
    const pieces = chunkSegments(segments, pieceTokens("summary", CONTEXT));
    expect(pieces.length).toBeGreaterThan(1);
    const fileId = await seedTranscript(user.id, segments);
    fake.mode("prose");
    const row = await ended(await startNote(user.id, { kind: "summary", fileId }));
    expect(row.status).toBe(2);
    const note = row.result as SummaryNote;
    expect(note.abstracts).toBe(
      pieces
        .map((p) => `The meeting ran over ${p.to - p.from + 1} segments, opening with "${segments[p.from]!.text}"`)
        .join(" "),
    );
    expect(note.fallback).toEqual({ abstracts: "prose", todos: "offline" });
  });

  it("chapters in prose: the offline method's chapters, flagged, instead of a failure", async () => {
    const user = await seedUser(t.db);
    const segments = meeting(60);
    const fileId = await seedTranscript(user.id, segments);
    fake.mode("prose");
    const row = await ended(await startNote(user.id, { kind: "chapters", fileId }));
    expect(row).toMatchObject({ status: 2, errorReason: null });
    expect(row.result).toEqual({
      source: "offline",
      chapters: offlineChapters(segments),
      fallback: { chapters: "offline" },
    });
    expect((row.result as Chapters).chapters.length).toBeGreaterThan(0);
  });

  it("a translation in plain lines, one per segment, is read line by line and flagged", async () => {
    const user = await seedUser(t.db);
    const segments = meeting(6);
    const fileId = await seedTranscript(user.id, segments);
    fake.mode("prose");
    const row = await ended(await startNote(user.id, { kind: "translation", fileId, target: "zh" }));
    expect(row.status).toBe(2);
    const note = row.result as TranslationNote;
    expect(note.segments.map((s) => s.text)).toEqual(segments.map((s) => `ZH: ${s.text}`));
    expect(note.fallback).toEqual({ segments: "prose" });
  });

  it("an answer in prose is taken at its word, citing only the [n] it wrote", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    fake.mode("prose");
    const given = passages(fileId);
    const row = await ended(
      await startNote(user.id, { kind: "answer", fileId, question: "When is the launch?", passages: given }),
    );
    expect(row.status).toBe(2);
    expect(row.result).toEqual({
      answer: "According to the recording [1], The launch moves to May, point 0.",
      citations: [{ ...given[0], n: 1 }],
      fallback: { answer: "prose" },
    });
  });

  it("prose that cites a passage not given, or has no substance, still fails with 40005", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    override = () => "Sure! It was decided in passage [5], as everyone agreed at the time.";
    const row = await ended(
      await startNote(user.id, { kind: "answer", fileId, question: "When?", passages: passages(fileId) }),
    );
    expect(row).toMatchObject({ status: -1, errorCode: 40005, errorReason: "llm-bad-answer" });
    override = () => "Okay.";
    const short = await ended(await startNote(user.id, { kind: "summary", fileId }));
    expect(short).toMatchObject({ status: -1, errorCode: 40005, errorReason: "llm-bad-answer" });
  });

  /** A server of its own (its refusals are remembered per server+model), run through the job function. */
  async function againstServer(responseFormat: FakeLlmResponseFormat) {
    const server = await startFakeLlm({ contextTokens: CONTEXT, responseFormat });
    const llm = new OpenAiLlm({
      url: server.url,
      model: "small-model",
      timeoutMs: 5000,
      limit: new CallLimit(2),
      formats: new ResponseFormatMemory(),
    });
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, withTodo(9));
    const run = async (input: NewNoteTask) => {
      const { task } = await createNoteTask(t.domain, user.id, input);
      await runNoteJob(task.id, { domain: t.domain, llm });
      return t.db.noteTask.findUniqueOrThrow({ where: { id: task.id } });
    };
    return { server, fileId, run };
  }

  it("a server refusing response_format (400) is asked again without it, and that is remembered", async () => {
    const { server, fileId, run } = await againstServer("refuse");
    try {
      const row = await run({ kind: "summary", fileId });
      expect(row).toMatchObject({ status: 2, result: { abstracts: "Summary of 9 segments" } });
      expect(server.requests.map((r) => [r.status, formatOf(r)])).toEqual([
        [400, "json_schema"],
        [400, "json_object"],
        [200, null],
      ]);
      // the next note does not pay the refusals again
      const next = await run({ kind: "chapters", fileId });
      expect(next.status).toBe(2);
      expect(server.requests.slice(3).map((r) => [r.status, formatOf(r)])).toEqual([[200, null]]);
    } finally {
      await server.close();
    }
  });

  it("an old llama.cpp server refusing json_schema (500 naming it) gets json_object from then on", async () => {
    const { server, fileId, run } = await againstServer("refuse-schema");
    try {
      expect((await run({ kind: "summary", fileId })).status).toBe(2);
      expect((await run({ kind: "chapters", fileId })).status).toBe(2);
      expect(server.requests.map((r) => [r.status, formatOf(r)])).toEqual([
        [500, "json_schema"],
        [200, "json_object"],
        [200, "json_object"],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("failures, retries, cancel", () => {
  it("a garbage answer is asked once more, then fails with 40005 llm-bad-answer; the unused tokens go back", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(50));
    fake.mode("garbage");
    const mark = fake.requests.length;
    // a summary: "not json" is too little to be one (chapters would fall back to the offline method)
    const taskId = await startNote(user.id, { kind: "summary", fileId });
    const row = await ended(taskId);
    expect(row).toMatchObject({ status: -1, errorCode: 40005, errorReason: "llm-bad-answer", attempts: 1 });
    expect(row.errorMessage).toMatch(/holds no JSON object: "Sure! Here you go: not json"/);
    expect(noteTaskView(row, "en").errorText).toBe(
      "the language model's answer was not in the expected form, so it was rejected",
    );
    expect(noteTaskView(row, "zh").errorText).toBe("大语言模型的回答格式不正确，已放弃");
    const calls = since(mark);
    expect(calls).toHaveLength(2);
    expect(systemText(calls[0]!)).not.toContain("IMPORTANT");
    expect(systemText(calls[1]!)).toContain("IMPORTANT: your previous reply was rejected");
    expect(userText(calls[1]!)).toEqual(userText(calls[0]!));
    // what the two calls used stays spent, the rest of the reservation is back
    expect(row.tokensUsed).toBeGreaterThan(0);
    expect(await budgetUsed(user.id)).toBe(row.tokensUsed);
  });

  it("a garbage answer followed by a good one is accepted", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    let first = true;
    override = () => {
      if (!first) return undefined;
      first = false;
      return "```json\n{chapters: oops}\n```";
    };
    const row = await ended(await startNote(user.id, { kind: "chapters", fileId }));
    expect(row.status).toBe(2);
    expect((row.result as Chapters).chapters.map((c) => c.from)).toEqual([0, 8]);
  });

  it("a server failing twice then answering succeeds through the job's retries", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    fake.mode({ fail: 2, status: 503 });
    const mark = fake.requests.length;
    const row = await ended(await startNote(user.id, { kind: "summary", fileId }));
    expect(row).toMatchObject({ status: 2, attempts: 3, errorReason: null });
    expect(since(mark).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(await budgetUsed(user.id)).toBe(row.tokensUsed);
  });

  it("a refused request (401) fails at once with llm-refused, not retried", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    fake.mode({ fail: 5, status: 401 });
    const mark = fake.requests.length;
    const row = await ended(await startNote(user.id, { kind: "summary", fileId }));
    expect(row).toMatchObject({ status: -1, errorCode: 40005, errorReason: "llm-refused", attempts: 1 });
    expect(row.errorMessage).toMatch(/HTTP 401: check LLM_URL, LLM_KEY and LLM_MODEL/);
    expect(since(mark)).toHaveLength(1);
    expect(noteTaskView(row, "en").errorText).toBe("the language model server refused the request");
  });

  it("a retried attempt does not ask again the pieces already answered", async () => {
    const user = await seedUser(t.db);
    const segments = meeting(70);
    const pieces = chunkSegments(segments, pieceTokens("summary", CONTEXT));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    const fileId = await seedTranscript(user.id, segments);
    let seen = 0;
    override = (r) => {
      // after the second piece is answered, the next call finds the server down once
      if (r.task === "summary" && ++seen === 2) fake.mode({ fail: 1, status: 502 });
      return undefined;
    };
    const mark = fake.requests.length;
    const taskId = await startNote(user.id, { kind: "summary", fileId });
    const row = await ended(taskId);
    expect(row).toMatchObject({ status: 2, attempts: 2 });
    const firstLines = since(mark)
      .filter((r) => r.task === "summary")
      .map((r) => [promptLines(r.body.messages ?? [])[0]!.index, r.status]);
    expect(firstLines).toEqual([
      [pieces[0]!.from, 200],
      [pieces[1]!.from, 200],
      [pieces[2]!.from, 502],
      ...pieces.slice(2).map((p) => [p.from, 200]),
    ]);
    expect((row.result as SummaryNote).abstracts).toBe(
      pieces.map((p) => `Summary of ${p.to - p.from + 1} segments`).join(" "),
    );
    expect(row.partial).toBeNull();
  });

  it("a cancelled task stops calling at once (its call in flight aborted) and is settled once", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(70));
    // the first call answers at once; from then on the server takes 5 s
    override = (r) => {
      if (r.task === "summary") fake.mode({ delayMs: 5000 });
      return undefined;
    };
    const mark = fake.requests.length;
    const taskId = await startNote(user.id, { kind: "summary", fileId });
    await waitFor("the second call", async () => since(mark).length >= 2);
    const cancelled = await cancelNoteTask(t.domain, user.id, taskId);
    expect(cancelled).toMatchObject({ status: -1, errorReason: "cancelled" });
    const cancelledAt = Date.now();
    // the job ends quietly long before the slow call would have answered: that call was aborted
    const job = await waitFor("the job to end", async () => {
      const found = await t.queues.queue(QueueName.Notes).getJob(noteJobId(taskId));
      return found && (await found.getState()) === "completed" ? found : null;
    });
    expect(Date.now() - cancelledAt).toBeLessThan(2000);
    expect(job.returnvalue).toMatchObject({ status: "skipped" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(since(mark)).toHaveLength(2);
    const row = await t.db.noteTask.findUniqueOrThrow({ where: { id: taskId } });
    expect(row).toMatchObject({ status: -1, errorReason: "cancelled", result: null });
    expect(row.settledAt).not.toBeNull();
    // the first call's tokens were counted before the cancel; nothing after it
    expect(row.tokensUsed).toBeGreaterThan(0);
    expect(await budgetUsed(user.id)).toBe(row.tokensUsed);
  });

  it("a record deleted before the job runs fails it as transcript-gone", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    const { task } = await createNoteTask(t.domain, user.id, { kind: "chapters", fileId });
    await t.db.audioRecord.update({ where: { fileId }, data: { deletedAt: new Date() } });
    await t.queues
      .queue(QueueName.Notes)
      .add(
        NOTE_JOB,
        { taskId: task.id },
        { jobId: noteJobId(task.id), attempts: 3, backoff: { type: "fixed", delay: 50 } },
      );
    const row = await ended(task.id);
    expect(row).toMatchObject({ status: -1, errorReason: "transcript-gone", attempts: 1 });
    expect(noteTaskView(row, "zh").errorText).toBe("转写内容已删除");
  });

  it("with no model configured a job fails with llm-unavailable and sends nothing", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    const { task } = await createNoteTask(t.domain, user.id, { kind: "summary", fileId });
    const mark = fake.requests.length;
    await expect(runNoteJob(task.id, { domain: t.domain, llm: null })).rejects.toMatchObject({
      reason: "llm-unavailable",
    });
    expect(since(mark)).toHaveLength(0);
  });

  it("the stuck sweep fails a task running far too long and settles it", async () => {
    const user = await seedUser(t.db);
    const fileId = await seedTranscript(user.id, meeting(10));
    const { task } = await createNoteTask(t.domain, user.id, { kind: "chapters", fileId });
    const reserved = await budgetUsed(user.id);
    expect(reserved).toBe(task.tokensReserved);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await t.db.noteTask.update({
      where: { id: task.id },
      data: { status: 1, startedAt: twoHoursAgo, tokensUsed: 123 },
    });
    const result = await runHousekeeping(t.domain, { queues: t.queues });
    expect(result.failedStuckNoteTasks).toBeGreaterThanOrEqual(1);
    const row = await t.db.noteTask.findUniqueOrThrow({ where: { id: task.id } });
    expect(row).toMatchObject({ status: -1, errorCode: 40005, errorReason: "failed" });
    expect(row.errorMessage).toMatch(/still running after \d+ minutes/);
    expect(row.settledAt).not.toBeNull();
    expect(await budgetUsed(user.id)).toBe(123);
  });
});
