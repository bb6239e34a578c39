import type { NotesOfRecord, NoteTask } from "@yuelu/contracts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";

/** Test fixtures (named as such) for the AI notes on /detail: a short Chinese meeting and its notes. */

export const SEGMENTS = [
  { spkName: "张三", startTime: 0, endTime: 60_000, text: "先说预算和发票。" },
  { spkName: "李四", startTime: 60_000, endTime: 120_000, text: "预算这季度超了。" },
  { spkName: "张三", startTime: 120_000, endTime: 180_000, text: "然后是招聘，李四周五前把面试安排好。" },
];

export const OFFLINE_CHAPTERS = {
  source: "offline",
  chapters: [
    { from: 0, to: 1, startTime: 0, endTime: 120_000, title: "预算、发票", gist: ["先说预算和发票。"] },
    { from: 2, to: 2, startTime: 120_000, endTime: 180_000, title: "招聘、面试", gist: ["然后是招聘。"] },
  ],
};

export const LLM = {
  configured: true,
  model: "fake-model",
  host: "llm.example:8080",
  answering: true,
  problem: null,
  checkedAt: null,
};
export const NO_LLM = { configured: false, model: null, host: null, answering: null, problem: null, checkedAt: null };

export function task(over: Partial<NoteTask> = {}): NoteTask {
  return {
    taskId: 7,
    fileId: 1,
    kind: "chapters",
    target: "",
    question: "",
    status: 3,
    progress: 0,
    errorCode: null,
    errorReason: null,
    errorText: null,
    stale: false,
    model: "fake-model",
    tokensUsed: 0,
    createdAt: "2025-01-02T03:04:05.000Z",
    finishedAt: null,
    result: null,
    ...over,
  };
}

export function notesOf(over: Partial<NotesOfRecord> = {}): NotesOfRecord {
  return {
    llm: LLM,
    budget: { used: 1200, limit: 200_000, member: false },
    notes: [],
    offline: {
      todos: [{ text: "李四周五前把面试安排好", owner: null, due: "周五", segmentIndex: 2, startTime: 120_000 }],
    },
    ...over,
  };
}

type Routes = Parameters<typeof signedInBackend>[0];

/** A signed-in backend with record 1 transcribed (SEGMENTS), its offline chapters, and `routes` over them. */
export function notesBackend(
  routes: Routes,
  text: { language?: string; abstracts?: string; segments?: unknown[] } = {},
) {
  return signedInBackend({
    "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1, fileName: "周会.mp3", timeLen: 180 }),
    "GET /api/v2/audio/text/get_text": () => ({
      fileId: 1,
      fileName: "周会.mp3",
      updateTime: 1_735_787_045,
      timeLen: 180,
      language: text.language ?? "zh",
      asrResult: JSON.stringify(text.segments ?? SEGMENTS),
      abstracts: text.abstracts ?? "",
      audio: null,
    }),
    "GET /text/chapters": () => OFFLINE_CHAPTERS,
    "GET /text/notes": () => notesOf(),
    ...routes,
  });
}

export const DETAIL = "/detail?fileId=1&timeLen=180&fileName=周会.mp3";
