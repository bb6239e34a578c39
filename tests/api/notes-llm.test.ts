import { randomUUID } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { noteJobId, type Segment } from "@yuelu/contracts";
import {
  businessDay,
  chunkSegments,
  claimNoteTask,
  completeNoteTask,
  createNoteTask,
  estimateNoteTokens,
  pieceTokens,
  reindexRecord,
  segmentLineTokens,
} from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import type supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";

/**
 * AI notes over the API with a language model configured (a fake OpenAI-compatible server) and without one
 * (docs/notes.md): tasks, the daily token budget under races, ownership, questions, exports. No worker runs
 * here: tasks stay queued, and done notes are written with the domain's own moves.
 */

const DAILY = 20_000;
let fake: FakeLlm;
let t: TestApp;
let offline: TestApp;
let alice: SignedIn;
let bob: SignedIn;
let olga: SignedIn;
beforeAll(async () => {
  fake = await startFakeLlm();
  [t, offline] = await Promise.all([
    // new users are members for a while (welcome gifts): both figures are the same here
    createTestApp({
      LLM_URL: fake.url,
      LLM_MODEL: "fake-model",
      LLM_DAILY_TOKENS: String(DAILY),
      LLM_DAILY_TOKENS_MEMBER: String(DAILY),
    }),
    createTestApp(),
  ]);
  [alice, bob, olga] = await Promise.all([signIn(t), signIn(t), signIn(offline)]);
});
afterAll(async () => {
  await Promise.all([t?.close(), offline?.close()]);
  await fake?.close();
});

const MEETING: Segment[] = [
  { spkName: "Alice", startTime: 0, endTime: 5000, text: "Welcome everyone, today we review the marketing budget." },
  { spkName: "Bob", startTime: 5000, endTime: 11_000, text: "The budget for the spring campaign is forty thousand." },
  { spkName: "Alice", startTime: 11_000, endTime: 16_000, text: "I'll send the revised budget sheet by Friday." },
  { spkName: "Carol", startTime: 16_000, endTime: 22_000, text: "The new office opens in April near the station." },
  { spkName: "Bob", startTime: 22_000, endTime: 27_000, text: "Carol, can you book the venue for the launch party?" },
];

async function record(app: TestApp, who: SignedIn, segments: Segment[] = MEETING, options: { deleted?: boolean } = {}) {
  const rec = await app.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName: "weekly.m4a",
      format: "m4a",
      fileSize: 1000n,
      timeLen: 60,
      storageKey: `test/${randomUUID()}.m4a`,
      fileStatus: 2,
      progress: 100,
      deletedAt: options.deleted ? new Date() : null,
    },
  });
  await app.db.transcript.create({ data: { fileId: rec.fileId, asrResult: segments, language: "en" } });
  // the search index is written with the transcript, as the transcription job does
  await reindexRecord(app.db, rec.fileId);
  return rec;
}

const call = (app: TestApp, who: SignedIn, lang: "zh" | "en" = "en") => ({
  get: (path: string) => app.http().get(`/voice_yuelu${path}`).set("Cookie", who.cookie).set("lang", lang),
  post: (path: string, body: Record<string, unknown>) =>
    app.http().post(`/voice_yuelu${path}`).set("Cookie", who.cookie).set("lang", lang).send(body),
});

const budgetUsed = async (app: TestApp, who: SignedIn) =>
  (
    await app.db.llmBudgetDay.findUnique({
      where: { userId_day: { userId: who.userId, day: businessDay(new Date(), app.config.BUSINESS_TZ) } },
    })
  )?.used ?? 0;

/** What createNoteTask reserves for a note of the whole transcript (chunks.ts). */
function reserveOf(kind: "summary" | "chapters", segments: Segment[]): number {
  const tokens = segments.reduce((sum, s, i) => sum + segmentLineTokens(s, i), 0);
  const pieces = chunkSegments(segments, pieceTokens(kind, t.config.LLM_CONTEXT_TOKENS)).length;
  return estimateNoteTokens(kind, tokens, pieces);
}

/** A done note written as a worker would: created, claimed, completed with `result`. */
async function doneNote(who: SignedIn, input: Parameters<typeof createNoteTask>[2], result: Record<string, unknown>) {
  const { task } = await createNoteTask(t.domain, who.userId, input);
  await claimNoteTask(t.domain, task.id);
  expect(await completeNoteTask(t.domain, task.id, result)).toBe(true);
  return task.id;
}

const binary = (req: supertest.Test) =>
  req.buffer(true).parse((res, callback) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => callback(null, Buffer.concat(chunks)));
  });

/** word/document.xml of a .docx (a zip), read from its central directory. */
function docxXml(zip: Buffer): string {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    if (name === "word/document.xml") {
      const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(dataAt, dataAt + size);
      return (method === 0 ? data : inflateRawSync(data)).toString("utf8");
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  throw new Error("no word/document.xml");
}

describe("no LLM configured", () => {
  it("POST /text/notes answers 70002 in zh and en and creates nothing", async () => {
    const rec = await record(offline, olga);
    const zh = await call(offline, olga, "zh").post("/text/notes", { kind: "summary", fileId: rec.fileId });
    expect(zh.body).toMatchObject({ status_code: 70002, data: null });
    // users' words: the variables to set are the operator's (issue 41)
    expect(zh.body.status_msg).toBe("本站 AI 功能未开启，请联系站点管理员");
    expect(zh.body.status_msg).not.toMatch(/LLM_/);
    const en = await call(offline, olga).post("/text/notes", { kind: "translation", fileId: rec.fileId, target: "zh" });
    expect(en.body.status_code).toBe(70002);
    expect(en.body.status_msg).toBe("AI features are off on this site. Please contact the site administrator.");
    expect(await offline.db.noteTask.count()).toBe(0);
    expect(await offline.db.llmBudgetDay.count()).toBe(0);
  });

  it("GET /text/notes: not configured, today's budget, no notes, the offline to-dos", async () => {
    const rec = await record(offline, olga);
    const res = await call(offline, olga).get(`/text/notes?fileId=${rec.fileId}`);
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.llm).toEqual({
      configured: false,
      model: null,
      host: null,
      answering: null,
      problem: null,
      checkedAt: null,
    });
    const { member } = res.body.data.budget;
    expect(res.body.data.budget).toEqual({ used: 0, limit: member ? 2_000_000 : 200_000, member });
    expect(res.body.data.notes).toEqual([]);
    expect(res.body.data.offline.todos).toEqual([
      {
        text: "I'll send the revised budget sheet by Friday.",
        owner: "Alice",
        due: "by Friday",
        segmentIndex: 2,
        startTime: 11_000,
      },
      {
        text: "Carol, can you book the venue for the launch party?",
        owner: "Carol",
        due: null,
        segmentIndex: 4,
        startTime: 22_000,
      },
    ]);
  });

  it("ask: the best-matching passages, labelled as passages, and no task", async () => {
    const rec = await record(offline, olga);
    const one = await call(offline, olga).post("/text/ask", {
      question: "What did we say about the office?",
      fileId: rec.fileId,
    });
    expect(one.body.status_code).toBe(1);
    expect(one.body.data.mode).toBe("passages");
    expect(one.body.data.task).toBeNull();
    expect(one.body.data.passages[0]).toEqual({
      fileId: rec.fileId,
      fileName: "weekly.m4a",
      segmentIndex: 3,
      startTime: 16_000,
      endTime: 22_000,
      speaker: "Carol",
      text: MEETING[3]!.text,
    });
    // across all records: through the search index
    const all = await call(offline, olga).post("/text/ask", { question: "how much is the spring campaign budget?" });
    expect(all.body.data.passages[0]).toMatchObject({ segmentIndex: 1, speaker: "Bob" });
    expect(all.body.data.task).toBeNull();
    const nothing = await call(offline, olga).post("/text/ask", { question: "what about the weather?" });
    expect(nothing.body.data).toEqual({ mode: "passages", passages: [], task: null });
  });

  it("ask in Chinese: the question's own words are dropped, its bigrams find the passage in any record", async () => {
    const rec = await record(offline, olga, [
      { spkName: "说话人1", startTime: 0, endTime: 4000, text: "今天先同步一下招聘的进展，前端还缺两个人。" },
      { spkName: "说话人2", startTime: 4000, endTime: 9000, text: "服务器迁移定在下个月十五号，周末停机两个小时。" },
      { spkName: "说话人1", startTime: 9000, endTime: 12_000, text: "好。" },
      { spkName: "说话人2", startTime: 12_000, endTime: 15_000, text: "预算的事下次再说。" },
    ]);
    const res = await call(offline, olga, "zh").post("/text/ask", { question: "我们关于服务器迁移是怎么决定的？" });
    expect(res.body.data.passages[0]).toMatchObject({ fileId: rec.fileId, segmentIndex: 1, speaker: "说话人2" });
    const en = await call(offline, olga).post("/text/ask", { question: "服务器迁移什么时候？", fileId: rec.fileId });
    expect(en.body.data.passages[0]).toMatchObject({ segmentIndex: 1, speaker: "Speaker 2" });
    // a short passage brings its next segment along
    const short = await call(offline, olga, "zh").post("/text/ask", { question: "好", fileId: rec.fileId });
    expect(short.body.data.passages[0]).toMatchObject({
      segmentIndex: 2,
      startTime: 9000,
      endTime: 15_000,
      text: "好。预算的事下次再说。",
    });
  });

  it("update_abstracts offline still makes and saves the extractive summary, with no task", async () => {
    const rec = await record(offline, olga);
    const res = await call(offline, olga).post("/text/update_abstracts", { fileId: rec.fileId });
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.abstracts.length).toBeGreaterThan(0);
    expect(res.body.data.task ?? null).toBeNull();
    const stored = await offline.db.transcript.findUniqueOrThrow({ where: { fileId: rec.fileId } });
    expect(stored.abstracts).toBe(res.body.data.abstracts);
  });
});

describe("with an LLM", () => {
  it("creates a queued task with its tokens reserved, and queues its job; the same requestId is one task", async () => {
    const rec = await record(t, alice);
    const before = await budgetUsed(t, alice);
    const body = { kind: "summary", fileId: rec.fileId, requestId: `req-${randomUUID()}` };
    const [first, second] = await Promise.all([
      call(t, alice).post("/text/notes", body),
      call(t, alice).post("/text/notes", body),
    ]);
    expect(first.body.status_code).toBe(1);
    expect(first.body.data).toMatchObject({ kind: "summary", fileId: rec.fileId, status: 3, model: "fake-model" });
    expect(second.body.data.taskId).toBe(first.body.data.taskId);
    const rows = await t.db.noteTask.findMany({ where: { userId: alice.userId, fileId: rec.fileId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokensReserved).toBe(reserveOf("summary", MEETING));
    expect(await budgetUsed(t, alice)).toBe(before + rows[0]!.tokensReserved);
    const job = await t.queues.queue(QueueName.Notes).getJob(noteJobId(rows[0]!.id));
    expect(job?.data).toEqual({ taskId: rows[0]!.id });
    expect(job?.opts.attempts).toBe(3);

    const task = await call(t, alice).get(`/text/notes/task?taskId=${rows[0]!.id}`);
    expect(task.body.data).toMatchObject({ taskId: rows[0]!.id, status: 3, result: null });
    const notes = await call(t, alice).get(`/text/notes?fileId=${rec.fileId}`);
    expect(notes.body.data.llm).toMatchObject({ configured: true, model: "fake-model", answering: true });
    expect(notes.body.data.llm.host).toBe(new URL(fake.url).host);
    expect(notes.body.data.notes.map((n: { taskId: number }) => n.taskId)).toEqual([rows[0]!.id]);
    expect(notes.body.data.budget).toMatchObject({ used: before + rows[0]!.tokensReserved, limit: DAILY });
  });

  it("budget race: 10 parallel notes whose reservations fit 3 times → exactly 3, the others 50008", async () => {
    const racer = await signIn(t);
    // the smallest transcript whose summary reserves more than a quarter of the day
    let segments: Segment[] = [];
    for (let n = 1; reserveOf("summary", segments) <= DAILY / 4; n++) {
      segments = Array.from({ length: n }, (_, i) => ({
        spkName: "A",
        startTime: i * 5000,
        endTime: i * 5000 + 4000,
        text: `Segment ${i} talks about the quarterly plan and what each team delivers next month.`,
      }));
    }
    const reserve = reserveOf("summary", segments);
    expect(reserve * 3).toBeLessThanOrEqual(DAILY);
    const rec = await record(t, racer, segments);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(t, racer).post("/text/notes", { kind: "summary", fileId: rec.fileId })),
    );
    const codes = answers.map((a) => a.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(3);
    expect(codes.filter((c) => c === 50008)).toHaveLength(7);
    expect(answers.find((a) => a.body.status_code === 50008)!.body.status_msg).toContain(String(DAILY));
    const rows = await t.db.noteTask.findMany({ where: { userId: racer.userId } });
    expect(rows).toHaveLength(3);
    expect(await budgetUsed(t, racer)).toBe(rows.reduce((sum, r) => sum + r.tokensReserved, 0));
  });

  it("cancel settles once: two parallel cancels give the tokens back once", async () => {
    const who = await signIn(t);
    const rec = await record(t, who);
    const kept = await call(t, who).post("/text/notes", { kind: "chapters", fileId: rec.fileId });
    const stopped = await call(t, who).post("/text/notes", { kind: "summary", fileId: rec.fileId });
    const keptReserve = reserveOf("chapters", MEETING);
    expect(await budgetUsed(t, who)).toBe(keptReserve + reserveOf("summary", MEETING));
    const taskId = stopped.body.data.taskId;
    const [a, b] = await Promise.all([
      call(t, who).post("/text/notes/cancel", { taskId }),
      call(t, who, "zh").post("/text/notes/cancel", { taskId }),
    ]);
    expect(a.body.data).toMatchObject({ taskId, status: -1, errorReason: "cancelled", errorText: "cancelled" });
    expect(b.body.data).toMatchObject({ status: -1, errorReason: "cancelled", errorText: "已取消" });
    expect(await budgetUsed(t, who)).toBe(keptReserve);
    expect(kept.body.data.status).toBe(3);
  });

  it("delete_forever gives back what the record's unfinished notes reserved, once, and keeps what done ones used", async () => {
    const who = await signIn(t);
    const rec = await record(t, who);
    const done = await doneNote(who, { kind: "chapters", fileId: rec.fileId }, { chapters: [] });
    await t.db.noteTask.update({ where: { id: done }, data: { tokensUsed: 0 } });
    const usedByDone = await budgetUsed(t, who);
    const queued = await call(t, who).post("/text/notes", { kind: "summary", fileId: rec.fileId });
    const running = await call(t, who).post("/text/notes", { kind: "translation", fileId: rec.fileId, target: "zh" });
    expect(queued.body.status_code).toBe(1);
    expect(running.body.status_code).toBe(1);
    await claimNoteTask(t.domain, running.body.data.taskId);
    // the running one has used 40 tokens on its first step when the record goes
    await t.db.noteTask.update({ where: { id: running.body.data.taskId }, data: { tokensUsed: 40 } });
    await t.db.audioRecord.update({ where: { fileId: rec.fileId }, data: { deletedAt: new Date() } });
    const gone = await Promise.all(
      [1, 2].map(() =>
        t
          .http()
          .post("/voice_yuelu/api/v1/audio/record/delete_forever")
          .set("Cookie", who.cookie)
          .send({ fileIds: `${rec.fileId}` }),
      ),
    );
    expect(gone.map((r) => r.body.status_code).sort()).toEqual([1, 30001]);
    expect(await t.db.noteTask.count({ where: { fileId: rec.fileId } })).toBe(0);
    expect(await budgetUsed(t, who)).toBe(usedByDone + 40);
  });

  it("is the owner's alone: another user's record 30001, task 20003, and questions never reach their records", async () => {
    const theirs = await record(t, bob, [
      { spkName: "Bob", startTime: 0, endTime: 4000, text: "The secret merger with the zeppelin company closes soon." },
    ]);
    const binned = await record(t, alice, MEETING, { deleted: true });
    for (const fileId of [theirs.fileId, binned.fileId, 999_999_999]) {
      expect((await call(t, alice).get(`/text/notes?fileId=${fileId}`)).body.status_code).toBe(30001);
      expect((await call(t, alice).post("/text/notes", { kind: "summary", fileId })).body.status_code).toBe(30001);
      expect((await call(t, alice).post("/text/ask", { question: "merger?", fileId })).body.status_code).toBe(30001);
    }
    const bobs = await call(t, bob).post("/text/notes", { kind: "chapters", fileId: theirs.fileId });
    const taskId = bobs.body.data.taskId;
    expect((await call(t, alice).get(`/text/notes/task?taskId=${taskId}`)).body.status_code).toBe(20003);
    expect((await call(t, alice).post("/text/notes/cancel", { taskId })).body.status_code).toBe(20003);
    expect((await call(t, bob).get(`/text/notes/task?taskId=${taskId}`)).body.data.status).toBe(3);

    // across records: Bob's record matches, but only Alice's own are searched (nothing of hers matches)
    const across = await call(t, alice).post("/text/ask", { question: "what about the zeppelin merger?" });
    expect(across.body.data).toEqual({ mode: "passages", passages: [], task: null });
    const bobAsks = await call(t, bob).post("/text/ask", { question: "what about the zeppelin merger?" });
    expect(bobAsks.body.data.passages.map((p: { fileId: number }) => p.fileId)).toEqual([theirs.fileId]);
  });

  it("ask: passages at once and an answer task citing them; nothing found → no task", async () => {
    const who = await signIn(t);
    const rec = await record(t, who);
    const res = await call(t, who).post("/text/ask", {
      question: "When does the new office open?",
      fileId: rec.fileId,
      requestId: `ask-${randomUUID()}`,
    });
    expect(res.body.data.mode).toBe("passages");
    expect(res.body.data.passages[0]).toMatchObject({ segmentIndex: 3, text: MEETING[3]!.text });
    expect(res.body.data.task).toMatchObject({ kind: "answer", question: "When does the new office open?", status: 3 });
    const row = await t.db.noteTask.findUniqueOrThrow({ where: { id: res.body.data.task.taskId } });
    expect(row.context).toEqual(res.body.data.passages);
    const none = await call(t, who).post("/text/ask", { question: "what about the weather?", fileId: rec.fileId });
    expect(none.body.data).toEqual({ mode: "passages", passages: [], task: null });
    expect(await t.db.noteTask.count({ where: { userId: who.userId } })).toBe(1);
  });

  it("update_abstracts without abstracts starts a summary task and answers the current abstracts", async () => {
    const who = await signIn(t);
    const rec = await record(t, who);
    await t.db.transcript.update({ where: { fileId: rec.fileId }, data: { abstracts: "Earlier summary." } });
    const requestId = `sum-${randomUUID()}`;
    const res = await call(t, who).post("/text/update_abstracts", { fileId: rec.fileId, requestId });
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.abstracts).toBe("Earlier summary.");
    expect(res.body.data.task).toMatchObject({ kind: "summary", fileId: rec.fileId, status: 3, stale: false });
    const again = await call(t, who).post("/text/update_abstracts", { fileId: rec.fileId, requestId });
    expect(again.body.data.task.taskId).toBe(res.body.data.task.taskId);
    // given abstracts are saved as before, no task
    const saved = await call(t, who).post("/text/update_abstracts", { fileId: rec.fileId, abstracts: "Mine." });
    expect(saved.body.data).toEqual({ abstracts: "Mine." });
    expect(await t.db.noteTask.count({ where: { userId: who.userId } })).toBe(1);
  });

  it("chapters: the LLM's while they match the transcript, offline once it is edited", async () => {
    const who = await signIn(t);
    const rec = await record(t, who);
    const chapters = [{ from: 0, to: 4, startTime: 0, endTime: 27_000, title: "Budget and launch", gist: ["All."] }];
    await doneNote(who, { kind: "chapters", fileId: rec.fileId }, { source: "llm", chapters });
    const llm = await call(t, who).get(`/text/chapters?fileId=${rec.fileId}`);
    expect(llm.body.data).toEqual({ source: "llm", chapters });
    await call(t, who).post("/text/update_para", { fileId: rec.fileId, index: 0, text: "Welcome, all." });
    const after = await call(t, who).get(`/text/chapters?fileId=${rec.fileId}`);
    expect(after.body.data.source).toBe("offline");
  });
});

describe("exports", () => {
  it("txt and Word list the summary note's to-dos, or the offline ones when there is none", async () => {
    const who = await signIn(t);
    const withNote = await record(t, who);
    const todos = [{ text: "Book the venue", owner: "Carol", due: "next Monday", segmentIndex: 4, startTime: 22_000 }];
    await doneNote(who, { kind: "summary", fileId: withNote.fileId }, { abstracts: "The budget.", todos });
    const txt = await call(t, who).get(`/api/v3/audio/text/export_txt?fileId=${withNote.fileId}`);
    expect(txt.text).toContain("\nAction items\n- Book the venue (Carol · next Monday · 00:00:22)\n");
    expect(txt.text).not.toContain("I'll send the revised budget sheet by Friday. (");
    const zh = await call(t, who, "zh").get(`/api/v3/audio/text/export_txt?fileId=${withNote.fileId}`);
    expect(zh.text).toContain("待办事项\n- Book the venue（Carol · next Monday · 00:00:22）");

    const without = await record(t, who);
    const offlineTxt = await call(t, who).get(`/api/v3/audio/text/export_txt?fileId=${without.fileId}`);
    expect(offlineTxt.text).toContain("- I'll send the revised budget sheet by Friday. (Alice · by Friday · 00:00:11)");
    for (const path of ["/api/v3/audio/text/export_word", "/text/rich_export_word", "/text/abstracts_export_word"]) {
      const xml = docxXml((await binary(call(t, who).get(`${path}?fileId=${withNote.fileId}`))).body);
      expect(xml).toContain("Action items");
      expect(xml).toContain("1. Book the venue (Carol · next Monday · 00:00:22)");
    }
  });

  it("SRT/VTT carry a done translation (alone or under the original), and ask for one that exists", async () => {
    const who = await signIn(t);
    const rec = await record(t, who);
    const segments = MEETING.map((s, index) => ({
      index,
      startTime: s.startTime,
      endTime: s.endTime,
      text: `译文 ${index}`,
    }));
    const plain = await call(t, who).get(`/api/v3/audio/text/export_srt?fileId=${rec.fileId}`);
    const missing = await call(t, who).get(`/api/v3/audio/text/export_srt?fileId=${rec.fileId}&translation=zh`);
    expect(missing.body.status_code).toBe(10002);
    expect(missing.body.status_msg).toContain("translation");

    await doneNote(who, { kind: "translation", fileId: rec.fileId, target: "zh" }, { target: "zh", segments });
    const srt = await call(t, who).get(`/api/v3/audio/text/export_srt?fileId=${rec.fileId}&translation=zh`);
    expect(srt.text.split("\n").slice(0, 4)).toEqual(["1", "00:00:00,000 --> 00:00:05,000", "Alice: 译文 0", ""]);
    expect(srt.text).not.toContain("Welcome everyone");
    const both = await call(t, who).get(
      `/api/v3/audio/text/export_srt?fileId=${rec.fileId}&translation=zh&bilingual=true`,
    );
    expect(both.text).toContain(
      "2\n00:00:05,000 --> 00:00:11,000\nBob: The budget for the spring campaign is forty thousand.\n译文 1\n",
    );
    const vtt = await call(t, who).get(`/api/v3/audio/text/export_vtt?fileId=${rec.fileId}&translation=zh&bilingual=1`);
    expect(vtt.text).toContain(
      "00:00:16.000 --> 00:00:22.000\n<v Carol>The new office opens in April near the station.\n译文 3\n",
    );
    // without the parameter: as before
    expect((await call(t, who).get(`/api/v3/audio/text/export_srt?fileId=${rec.fileId}`)).text).toBe(plain.text);
    const en = await call(t, who).get(`/api/v3/audio/text/export_vtt?fileId=${rec.fileId}&translation=en`);
    expect(en.body.status_code).toBe(10002);
  });
});
