import { randomUUID } from "node:crypto";
import type { Db } from "@yuelu/db";
import type { Config } from "@yuelu/runtime";
import { PitchTracker } from "../../apps/worker/src/audio/features.ts";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import type { TtsEngineResolver } from "../../apps/worker/src/engines/tts/factory.ts";
import { ttsEngineReports } from "../../apps/worker/src/engines/tts/factory.ts";
import { startTtsWorker, type TtsWorkerOptions } from "../../apps/worker/src/tts-worker.ts";
import type { TestApp } from "./app.ts";

/** What a synthesised file sounds like, measured (decoded to 16 kHz mono). */
export interface AudioStats {
  seconds: number;
  /** largest sample, 0–1 */
  peak: number;
  /** RMS of the frames within 30 dB of the loudest (the speech), 0–1 */
  speechRms: number;
  /** median F0 of voiced 64 ms frames (Hz; 0 when none is voiced) */
  medianF0: number;
  voicedFrames: number;
  /** zero-crossing rate of the samples above -34 dBFS: a crude timbre (brightness, breath) measure */
  zcr: number;
}

export async function audioStats(file: string): Promise<AudioStats> {
  const pcm = await decodeToPcm(file);
  const audio = pcm.slice(0, pcm.length);
  let peak = 0;
  for (const v of audio) peak = Math.max(peak, Math.abs(v));
  const frame = 320;
  const energies: number[] = [];
  for (let i = 0; i + frame <= audio.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j++) sum += audio[j]! ** 2;
    energies.push(sum / frame);
  }
  const loudest = Math.max(0, ...energies);
  const speech = energies.filter((e) => loudest > 0 && e >= loudest / 1000);
  const speechRms = speech.length ? Math.sqrt(speech.reduce((a, b) => a + b, 0) / speech.length) : 0;
  const tracker = new PitchTracker();
  const f0: number[] = [];
  for (let s = 0; s + 1024 < audio.length; s += 320) {
    const v = tracker.f0(audio, s);
    if (v) f0.push(v);
  }
  f0.sort((a, b) => a - b);
  let crossings = 0;
  let counted = 0;
  for (let i = 1; i < audio.length; i++) {
    if (Math.abs(audio[i]!) < 0.02) continue;
    counted++;
    if (audio[i]! > 0 !== audio[i - 1]! > 0) crossings++;
  }
  return {
    seconds: pcm.length / 16_000,
    peak,
    speechRms,
    medianF0: f0[Math.floor(f0.length / 2)] ?? 0,
    voicedFrames: f0.length,
    zcr: counted ? crossings / counted : 0,
  };
}

/** Writes a heartbeat row as a worker with these engines would (real reports from `config`). */
export async function reportTtsEngines(db: Db, config: Config): Promise<string> {
  const workerId = `test-tts-${randomUUID()}`;
  await db.workerHeartbeat.create({
    data: { workerId, hostname: "test", pid: process.pid, engines: ttsEngineReports(config) as object[] },
  });
  return workerId;
}

const silent = { info() {}, warn() {}, error() {} };

/**
 * A real TTS worker on the test app's queue (real engines unless `tts` is given), with its heartbeat
 * row; closing the app's queue backend stops it.
 */
export async function startTestTtsWorker(
  t: TestApp,
  options: TtsWorkerOptions & { config?: Config; tts?: TtsEngineResolver } = {},
) {
  const config = options.config ?? t.config;
  const workerId = await reportTtsEngines(t.db, config);
  const worker = startTtsWorker(
    { db: t.db, config, queues: t.queues, files: t.files, events: t.events, log: silent, tts: options.tts },
    { progressEveryMs: 0, ...options },
  );
  await worker.waitUntilReady();
  return {
    worker,
    workerId,
    async stop() {
      await worker.close();
      await t.db.workerHeartbeat.deleteMany({ where: { workerId } });
    },
  };
}
