import { Worker } from "node:worker_threads";
import type { Pcm } from "../audio/pcm.ts";
import { spoolOf } from "../audio/spool.ts";
import type { EnergyProfile } from "../audio/vad.ts";
import { type TimeSpan, type VoicePrints, voicePrints } from "./diarize.ts";
import type { VoicePrintAnswer, VoicePrintRequest, VoicePrintThreadData } from "./voice-print-thread.ts";

const keyOf = (span: TimeSpan) => `${span.startMs}-${span.endMs}`;
type Print = Omit<VoicePrintAnswer, "key">;

/**
 * Speaker features computed beside recognition: the engine hands each segment over as soon as it is
 * final (`add`), a worker thread computes its voice print on another core while the engine goes on,
 * and `collect` returns the prints of the final segment list — computing whatever was not handed over
 * (engines that learn their segments at the end). The recording is shared with the thread, not copied:
 * a spooled recording's file is read by the thread too, one in shared memory (decodeToPcm puts it there)
 * is handed over as it is.
 *
 * Diarization used to run after recognition and added ~20 % to a transcription; overlapped, only the
 * clustering (milliseconds) is left after the last segment.
 */
export class BackgroundVoicePrints {
  private readonly thread: Worker | null;
  private readonly answers = new Map<string, Promise<Print>>();
  private readonly waiting = new Map<string, (answer: Print) => void>();
  private failed = false;

  constructor(
    private readonly pcm: Pcm,
    private readonly profile: Pick<EnergyProfile, "db" | "threshold">,
  ) {
    let thread: Worker | null = null;
    try {
      const data: VoicePrintThreadData = {
        audio: spoolOf(pcm) ?? { samples: sharedCopy(pcm.samples) },
        db: profile.db,
        threshold: profile.threshold,
      };
      // compiled (dist/…/background-voice-prints.js): the thread's compiled file; from the sources: tsx's entry
      const entry = import.meta.url.endsWith(".js") ? "./voice-print-thread.js" : "./voice-print-thread.mjs";
      // A small young generation: each print's window of samples is garbage at once, and with V8's default
      // (16 MB semi-spaces) ~50 MB of them stayed in the thread over a long recording; 2 MB cost no time.
      thread = new Worker(new URL(entry, import.meta.url), {
        workerData: data,
        resourceLimits: { maxYoungGenerationSizeMb: 2 },
      });
      thread.on("message", (answer: VoicePrintAnswer) => this.settle(answer.key, answer));
      thread.on("error", () => this.giveUp());
      thread.on("exit", () => this.giveUp());
    } catch {
      thread = null;
      this.failed = true;
    }
    this.thread = thread;
  }

  /** Starts on a segment's voice print (in the background). */
  add(span: TimeSpan): void {
    const key = keyOf(span);
    if (this.answers.has(key) || this.failed || !this.thread) return;
    this.answers.set(key, new Promise<Print>((resolve) => this.waiting.set(key, resolve)));
    const request: VoicePrintRequest = { key, startMs: span.startMs, endMs: span.endMs };
    this.thread.postMessage(request);
  }

  /** The voice prints of `segments`, in their order; ends the thread. */
  async collect(segments: readonly TimeSpan[]): Promise<VoicePrints> {
    for (const s of segments) this.add(s);
    const prints: VoicePrints = { prints: [], stats: [] };
    for (const s of segments) {
      let answer = await (this.answers.get(keyOf(s)) ?? Promise.resolve<Print | null>(null));
      // The thread could not do it (not started, crashed, or failed on this span): compute it here.
      if (!answer || answer.error !== undefined) {
        const own = await voicePrints(this.pcm, [s], this.profile);
        answer = { print: own.prints[0] ?? null, stats: own.stats[0] ?? null };
      }
      prints.prints.push(answer.print);
      prints.stats.push(answer.stats);
    }
    await this.close();
    return prints;
  }

  async close(): Promise<void> {
    this.failed = true;
    await this.thread?.terminate();
    this.giveUp();
  }

  private settle(key: string, answer: Print): void {
    this.waiting.get(key)?.(answer);
    this.waiting.delete(key);
  }

  /** The thread is gone: every open request resolves as "compute it yourself". */
  private giveUp(): void {
    this.failed = true;
    for (const key of [...this.waiting.keys()]) this.settle(key, { print: null, stats: null, error: "thread ended" });
  }
}

/** The samples in shared memory: as they are when they already live there, else one copy. */
function sharedCopy(samples: Int16Array | Float32Array): Int16Array | Float32Array {
  if (samples.buffer instanceof SharedArrayBuffer) return samples;
  const shared = new SharedArrayBuffer(samples.byteLength);
  const copy = samples instanceof Int16Array ? new Int16Array(shared) : new Float32Array(shared);
  copy.set(samples);
  return copy;
}
