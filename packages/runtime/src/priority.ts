import { readdirSync } from "node:fs";
import os from "node:os";

/**
 * Lowers this process's CPU priority (a nice value, 0–19) so the heavy work of a worker (decoding,
 * speech recognition, voice prints, synthesis) yields the cores to the API and the database whenever
 * both want them, and still takes every idle cycle. On Linux the nice value belongs to each thread:
 * threads started later (libuv's pool, onnxruntime's, worker threads, ffmpeg children) inherit it from
 * the thread that starts them, and those already running (V8's) are set one by one. Answers the value
 * set, or undefined where the system refused (it is a hint: nothing fails without it).
 */
export function lowerOwnPriority(nice: number): number | undefined {
  if (nice <= 0) return undefined;
  const target = Math.min(19, Math.round(nice));
  try {
    os.setPriority(0, target);
  } catch {
    return undefined;
  }
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      try {
        os.setPriority(Number(tid), target);
      } catch {}
    }
  } catch {} // not Linux: the calling thread (and what it starts) is enough
  return target;
}
