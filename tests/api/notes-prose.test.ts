import { randomUUID } from "node:crypto";
import type { Segment } from "@yuelu/contracts";
import { offlineActionItems, offlineChapters, reindexRecord } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configuredLlm, type LlmClient } from "../../apps/worker/src/engines/llm/index.ts";
import { runNoteJob } from "../../apps/worker/src/jobs/notes.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";

/**
 * AI notes made by a model that answers in prose, on a server that refuses response_format (issue 41): what the
 * pages read over the API. Notes are asked for over the API and made by the notes job itself (runNoteJob, as the
 * worker runs it), with the configured client (configuredLlm), against a fake OpenAI-compatible server.
 */

let fake: FakeLlm;
let t: TestApp;
let llm: LlmClient;
beforeAll(async () => {
  fake = await startFakeLlm({ mode: "prose", responseFormat: "refuse" });
  t = await createTestApp({ LLM_URL: fake.url, LLM_MODEL: "small-model", LLM_DAILY_TOKENS: "500000" });
  llm = configuredLlm(t.config)!;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const MEETING: Segment[] = [
  { spkName: "Alice", startTime: 0, endTime: 5000, text: "Welcome everyone, today we review the marketing budget." },
  { spkName: "Bob", startTime: 5000, endTime: 11_000, text: "The budget for the spring campaign is forty thousand." },
  { spkName: "Alice", startTime: 11_000, endTime: 16_000, text: "I'll send the revised budget sheet by Friday." },
  { spkName: "Carol", startTime: 16_000, endTime: 22_000, text: "The new office opens in April near the station." },
  { spkName: "Bob", startTime: 22_000, endTime: 27_000, text: "Carol, can you book the venue for the launch party?" },
];

async function record(who: SignedIn) {
  const rec = await t.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName: "weekly.m4a",
      format: "m4a",
      fileSize: 1000n,
      timeLen: 60,
      storageKey: `test/${randomUUID()}.m4a`,
      fileStatus: 2,
      progress: 100,
    },
  });
  await t.db.transcript.create({ data: { fileId: rec.fileId, asrResult: MEETING, language: "en" } });
  await reindexRecord(t.db, rec.fileId);
  return rec;
}

const call = (who: SignedIn, lang: "zh" | "en" = "en") => ({
  get: (path: string) => t.http().get(`/voice_yuelu${path}`).set("Cookie", who.cookie).set("lang", lang),
  post: (path: string, body: Record<string, unknown>) =>
    t.http().post(`/voice_yuelu${path}`).set("Cookie", who.cookie).set("lang", lang).send(body),
});

/** A note asked for over the API, made by the notes job, and read back as the page polls it. */
async function made(who: SignedIn, body: Record<string, unknown>) {
  const created = await call(who).post("/text/notes", body);
  expect(created.body.status_code).toBe(1);
  await runNoteJob(created.body.data.taskId, { domain: t.domain, llm });
  const task = await call(who).get(`/text/notes/task?taskId=${created.body.data.taskId}`);
  expect(task.body.data).toMatchObject({ status: 2, errorReason: null });
  return task.body.data;
}

describe("a model answering in prose, on a server refusing response_format", () => {
  it("the summary is its prose and the to-dos are the offline ones, flagged, in the task, the notes and the record", async () => {
    const who = await signIn(t);
    const rec = await record(who);
    const mark = fake.requests.length;
    const task = await made(who, { kind: "summary", fileId: rec.fileId });
    const abstracts = `The meeting ran over 5 segments, opening with "${MEETING[0]!.text}"`;
    expect(task.result).toEqual({
      abstracts,
      todos: offlineActionItems(MEETING),
      fallback: { abstracts: "prose", todos: "offline" },
    });
    expect(task.result.todos.map((todo: { text: string }) => todo.text)).toEqual([
      "I'll send the revised budget sheet by Friday.",
      "Carol, can you book the venue for the launch party?",
    ]);
    // the refusal of response_format was paid once (then asked plainly), and the prose asked once more
    expect(
      fake.requests.slice(mark).map((r) => [r.status, (r.body.response_format as { type: string })?.type]),
    ).toEqual([
      [400, "json_schema"],
      [400, "json_object"],
      [200, undefined],
      [200, undefined],
    ]);
    const notes = await call(who).get(`/text/notes?fileId=${rec.fileId}`);
    expect(notes.body.data.notes[0].result.fallback).toEqual({ abstracts: "prose", todos: "offline" });
    const text = await call(who).get(`/api/v2/audio/text/get_text?fileId=${rec.fileId}`);
    expect(text.body.data.abstracts).toBe(abstracts);
  });

  it("chapters are the offline method's, said so both in the note and by GET /text/chapters", async () => {
    const who = await signIn(t);
    const rec = await record(who);
    const mark = fake.requests.length;
    const task = await made(who, { kind: "chapters", fileId: rec.fileId });
    const offline = { source: "offline", chapters: offlineChapters(MEETING), fallback: { chapters: "offline" } };
    expect(task.result).toEqual(offline);
    // remembered: no response_format is sent to this server any more
    expect(fake.requests.slice(mark).every((r) => r.body.response_format === undefined)).toBe(true);
    const chapters = await call(who).get(`/text/chapters?fileId=${rec.fileId}`);
    expect(chapters.body.data).toEqual(offline);
    // once the transcript is edited the note no longer applies: plain offline chapters, no fallback claimed
    await call(who).post("/text/update_para", { fileId: rec.fileId, index: 0, text: "Welcome, all." });
    const after = await call(who).get(`/text/chapters?fileId=${rec.fileId}`);
    expect(after.body.data.source).toBe("offline");
    expect(after.body.data.fallback).toBeUndefined();
  });

  it("a translation in plain lines is the model's, line by line, and an answer in prose cites what it wrote", async () => {
    const who = await signIn(t);
    const rec = await record(who);
    const translation = await made(who, { kind: "translation", fileId: rec.fileId, target: "zh" });
    expect(translation.result.fallback).toEqual({ segments: "prose" });
    const srt = await call(who).get(`/api/v3/audio/text/export_srt?fileId=${rec.fileId}&translation=zh`);
    expect(srt.text).toContain(`Alice: ZH: ${MEETING[0]!.text}`);

    const asked = await call(who).post("/text/ask", { question: "When does the new office open?", fileId: rec.fileId });
    const taskId = asked.body.data.task.taskId;
    await runNoteJob(taskId, { domain: t.domain, llm });
    const answer = await call(who).get(`/text/notes/task?taskId=${taskId}`);
    expect(answer.body.data.result).toMatchObject({
      answer: `According to the recording [1], ${asked.body.data.passages[0].text}`,
      citations: [{ n: 1, segmentIndex: asked.body.data.passages[0].segmentIndex }],
      fallback: { answer: "prose" },
    });
  });
});
