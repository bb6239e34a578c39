import { parentPort, workerData } from "node:worker_threads";
import { pcmFrom } from "../audio/pcm.ts";
import { type SpoolShare, spooledPcm } from "../audio/spool.ts";
import { voicePrints } from "./diarize.ts";

/**
 * Worker-thread side of BackgroundVoicePrints: reads the recording (its spool file, or shared memory: not a
 * copy) with its energy profile, and answers each `{ key, startMs, endMs }` with that span's voice print.
 */
export interface VoicePrintThreadData {
  /** the spooled recording's file (the job closes it once this thread has ended), or the samples */
  audio: SpoolShare | { samples: Int16Array | Float32Array };
  db: Float32Array;
  threshold: number;
}
export interface VoicePrintRequest {
  key: string;
  startMs: number;
  endMs: number;
}
export interface VoicePrintAnswer {
  key: string;
  print: Float64Array | null;
  stats: { n: number; sum: Float64Array; outer: Float64Array } | null;
  /** set when this span could not be computed here (the caller computes it itself) */
  error?: string;
}

const data = workerData as VoicePrintThreadData;
const pcm = "fd" in data.audio ? spooledPcm(data.audio) : pcmFrom(data.audio.samples);
const profile = { db: data.db, threshold: data.threshold };
const port = parentPort;
if (!port) throw new Error("voice-print-thread must run in a worker thread");

// One at a time, in order: requests queue up while a print is computed.
let queue = Promise.resolve();
port.on("message", (request: VoicePrintRequest) => {
  queue = queue.then(async () => {
    let answer: VoicePrintAnswer;
    try {
      const { prints, stats } = await voicePrints(pcm, [request], profile);
      answer = { key: request.key, print: prints[0] ?? null, stats: stats[0] ?? null };
    } catch (error) {
      answer = { key: request.key, print: null, stats: null, error: String(error) };
    }
    port.postMessage(answer);
  });
});
