import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStatus } from "@yuelu/contracts";
import { claimTask, saveTaskCheckpoint } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AsrEngine, AsrResult, AudioInput, TranscribeOptions } from "../../apps/worker/src/engines/asr/types.ts";
import { transcribe } from "../../apps/worker/src/jobs/transcribe.ts";
import { createTestApp, devSession, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { concatenate, synthesise } from "../helpers/speech.ts";
import { createChargedTask, waitFor } from "../helpers/tasks.ts";

/**
 * Issue 43: the text recognised so far while a record transcribes (GET /api/v1/dictation/partial), read
 * from the task's checkpoint in the database as the worker writes it after each batch; the owner's only.
 * Real PostgreSQL and Redis, the real transcription job (its engine a test double that can be held).
 */
let t: TestApp;
let dir: string;
let audio: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-partial-"));
  // three utterances with silence between them: three speech regions, a batch each at a small batch size
  const parts: string[] = [];
  for (const [i, line] of ["Good morning everyone.", "Let us talk about the budget.", "Thank you all."].entries()) {
    parts.push(await synthesise(line, path.join(dir, `line-${i}.wav`), "espeak-male", 1.2));
  }
  audio = await concatenate(parts, path.join(dir, "three.wav"));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const partial = (who: SignedIn, fileId: number) =>
  t.http().get(`/voice_yuelu/api/v1/dictation/partial?fileId=${fileId}`).set("Cookie", who.cookie);

/** The owner of a task made by createChargedTask, signed in. */
async function ownerOf(userId: number): Promise<SignedIn> {
  const user = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
  return devSession(t, user.phone!);
}

/**
 * Test double: an engine that hears unpunctuated Traditional Chinese in every region, and holds its
 * second batch until released (the worker has then stored the first batch's checkpoint).
 */
class FakeHeldEngine implements AsrEngine {
  readonly name = "fake-held";
  calls = 0;
  release!: () => void;
  private readonly held = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  async transcribe(_audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    this.calls++;
    if (this.calls === 2) await this.held;
    return {
      language: "zh",
      segments: (options.regions ?? []).map((r) => ({
        startMs: r.startMs,
        endMs: r.endMs,
        text: "今天開會 討論預算",
        words: [{ startMs: r.startMs, endMs: r.endMs, text: "今天" }],
      })),
    };
  }
}

describe("GET /api/v1/dictation/partial", () => {
  it("is empty before the first checkpoint, grows as the worker checkpoints, is empty again once done", {
    timeout: 120_000,
  }, async () => {
    const task = await createChargedTask(t.db, t.files, { audioFile: audio, language: "zh", speakerCount: 1 });
    const owner = await ownerOf(task.userId);

    const before = await partial(owner, task.fileId);
    expect(before.body.status_code, before.body.status_msg).toBe(1);
    expect(before.body.data).toEqual({
      fileId: task.fileId,
      fileStatus: FileStatus.InQueue,
      progress: 0,
      segments: [],
      upToMs: 0,
    });

    const engine = new FakeHeldEngine();
    const run = transcribe(task.taskId, {
      domain: t.domain,
      files: t.files,
      asr: () => engine,
      checkpointEveryMs: 500,
      progressEveryMs: 0,
    });
    try {
      // the second batch is being recognised: the first one's checkpoint is stored
      await waitFor("the second batch", async () => engine.calls >= 2);
      const mid = await partial(owner, task.fileId);
      expect(mid.body.status_code).toBe(1);
      const data = mid.body.data as { fileStatus: number; segments: Record<string, unknown>[]; upToMs: number };
      expect(data.fileStatus).toBe(FileStatus.Transcribing);
      expect(data.segments).toHaveLength(1);
      // as the finished transcript will read: punctuated, Simplified; no speakers or word timings yet
      expect(data.segments[0]).toEqual({
        startTime: expect.any(Number),
        endTime: data.upToMs,
        text: "今天开会，讨论预算。",
      });
      expect(data.upToMs).toBeGreaterThan(0);

      // another user's record is a record they cannot see: 30001, nothing of it in the answer
      const stranger = await signIn(t);
      const foreign = await partial(stranger, task.fileId);
      expect(foreign.body).toMatchObject({ status_code: 30001, data: null });
      expect(JSON.stringify(foreign.body)).not.toContain("预算");
      expect((await partial(owner, 999_999_999)).body.status_code).toBe(30001);
    } finally {
      engine.release();
    }
    expect(await run).toMatchObject({ status: "done", segments: 3 });
    const after = await partial(owner, task.fileId);
    expect(after.body.data).toMatchObject({ fileStatus: FileStatus.Complete, progress: 100, segments: [], upToMs: 0 });
  });

  it("reads a checkpoint written without a preview (an older worker) from its raw segments, without word timings", async () => {
    const task = await createChargedTask(t.db, t.files, { audioFile: audio, language: "en" });
    const owner = await ownerOf(task.userId);
    const claimed = await claimTask(t.domain, task.taskId);
    expect(claimed).not.toBeNull();
    const saved = await saveTaskCheckpoint(
      t.domain,
      { id: task.taskId, attempt: claimed!.attempt },
      {
        v: 1,
        offsetMs: 4200,
        regionsDone: 2,
        segments: [
          {
            startMs: 100.4,
            endMs: 1900.6,
            text: " good morning ",
            words: [{ startMs: 100, endMs: 600, text: "good" }],
          },
          { startMs: 2000, endMs: 2100, text: "  " },
          { startMs: 2500, endMs: 4200, text: "the budget" },
        ],
      },
    );
    expect(saved).toBe(true);
    const res = await partial(owner, task.fileId);
    expect(res.body.data).toEqual({
      fileId: task.fileId,
      fileStatus: FileStatus.Transcribing,
      progress: 0,
      segments: [
        { startTime: 100, endTime: 1901, text: "good morning" },
        { startTime: 2500, endTime: 4200, text: "the budget" },
      ],
      upToMs: 4200,
    });
  });
});
