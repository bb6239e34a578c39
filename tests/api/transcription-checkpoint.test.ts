import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStatus } from "@yuelu/contracts";
import { claimTask, completeTask, failTask, retryTask, saveTaskCheckpoint } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { synthesise } from "../helpers/speech.ts";
import { createChargedTask } from "../helpers/tasks.ts";

/**
 * Issue 32: the checkpoint column's rules in the domain — one guarded UPDATE per write (a worker whose
 * attempt is over cannot overwrite the next attempt's checkpoint), kept between attempts, cleared when
 * the task completes or fails for good. Real PostgreSQL.
 */
let t: TestApp;
let dir: string;
let audio: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-checkpoint-"));
  audio = await synthesise("A short clip for the checkpoint rules.", path.join(dir, "clip.wav"), "espeak-male");
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const stored = async (taskId: number) =>
  (await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: taskId } })).checkpoint as {
    offsetMs?: number;
  } | null;

describe("transcription checkpoints", () => {
  it("are written by the current attempt only, kept for the next one, and handed to it by the claim", async () => {
    const task = await createChargedTask(t.db, t.files, { audioFile: audio, language: "en" });
    // not running yet: nothing is written
    expect(await saveTaskCheckpoint(t.domain, { id: task.taskId, attempt: 0 }, { offsetMs: 1 })).toBe(false);

    const first = await claimTask(t.domain, task.taskId);
    expect(first?.attempt).toBe(1);
    expect(first?.checkpoint).toBeNull();
    expect(await saveTaskCheckpoint(t.domain, { id: task.taskId, attempt: 1 }, { offsetMs: 1000 })).toBe(true);

    // the first worker dies; the job is taken back (claim from running) by a second attempt
    const second = await claimTask(t.domain, task.taskId);
    expect(second?.attempt).toBe(2);
    expect(second?.checkpoint).toEqual({ offsetMs: 1000 });
    // the first worker, still alive somewhere (a stale lock), cannot overwrite the second attempt's checkpoint
    expect(await saveTaskCheckpoint(t.domain, { id: task.taskId, attempt: 2 }, { offsetMs: 2000 })).toBe(true);
    expect(await saveTaskCheckpoint(t.domain, { id: task.taskId, attempt: 1 }, { offsetMs: 1500 })).toBe(false);
    expect(await stored(task.taskId)).toEqual({ offsetMs: 2000 });

    // between attempts (a retry after an error) it is kept for the next one
    expect(await retryTask(t.domain, task.taskId)).toBe(true);
    expect(await stored(task.taskId)).toEqual({ offsetMs: 2000 });
    const third = await claimTask(t.domain, task.taskId);
    expect(third?.checkpoint).toEqual({ offsetMs: 2000 });

    // done: the transcript is stored and the half one is gone
    expect(await completeTask(t.domain, task.taskId, { segments: [], language: "en" })).toBe(true);
    const done = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(done.status).toBe(FileStatus.Complete);
    expect(done.checkpoint).toBeNull();
    // and a finished task takes no checkpoint any more
    expect(await saveTaskCheckpoint(t.domain, { id: task.taskId, attempt: 3 }, { offsetMs: 9 })).toBe(false);
  });

  it("are cleared when the task fails for good", async () => {
    const task = await createChargedTask(t.db, t.files, { audioFile: audio, language: "en" });
    await claimTask(t.domain, task.taskId);
    expect(await saveTaskCheckpoint(t.domain, { id: task.taskId, attempt: 1 }, { offsetMs: 500 })).toBe(true);
    expect(await failTask(t.domain, task.taskId, { code: 40001, reason: "error" })).toBe(true);
    const failed = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(failed.status).toBe(FileStatus.Failed);
    expect(failed.checkpoint).toBeNull();
  });
});
