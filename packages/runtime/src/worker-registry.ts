import { hostname } from "node:os";
import type { Db } from "@yuelu/db";
import type { ToolReport } from "./tools.ts";

/**
 * Which speech engines the running workers have. Each worker process writes a heartbeat row
 * (worker_heartbeats) when it starts and every HEARTBEAT_MS; the API reads the live ones for
 * dictation/configuration and /readyz — correct whether workers run in the API's process, in other
 * containers, or on GPU servers.
 */

export interface EngineReport {
  /**
   * speech recognition (absent: rows written before TTS existed), text to speech (docs/tts.md) or
   * live captions (docs/live.md: a streaming recogniser reachable at `url`)
   */
  kind?: "asr" | "tts" | "live";
  language: "zh" | "en" | "auto";
  engine: string;
  available: boolean;
  /** an EngineProblem of contracts/engines.ts when not available */
  problem?: string;
  /** percent of the model downloaded, while problem is "model-downloading" */
  progress?: number;
  /**
   * Operators only (/readyz, the console; never a user's page): the source this worker downloaded the
   * engine's model from, or is downloading it from ("modelscope", "hf-mirror", a host…)
   */
  modelSource?: string;
  /** operators only: the model sources that failed (a download failing, or skipped before one worked), and why */
  sourceFailures?: ModelSourceFailure[];
  /** kind "live": where the API reaches the worker's live-caption server (ws://host:port/live) */
  url?: string;
  /** kind "live": the most streams it decodes at once */
  maxSessions?: number;
}

/** A model source that did not deliver a file, and why (hosts, statuses, checksums: operators only). */
export interface ModelSourceFailure {
  source: string;
  file: string;
  /** unreachable | http | checksum | interrupted | no-checksum | not-held (no copy of that model there) */
  reason: string;
  detail: string;
}

export interface LiveWorker {
  workerId: string;
  hostname: string;
  pid: number;
  /** its speech recognition engines */
  engines: EngineReport[];
  /** its text-to-speech engines (kind "tts"), one report per engine and language */
  ttsEngines: EngineReport[];
  /** its live-caption streams (kind "live"), one report per language */
  liveEngines: EngineReport[];
  /** the outside programs it found (ffmpeg, ffprobe, espeak-ng, festival) and where */
  tools: ToolReport[];
  startedAt: Date;
  seenAt: Date;
}

export const HEARTBEAT_MS = 30_000;
/** A worker not seen for this long is taken for gone (three missed heartbeats). */
export const WORKER_STALE_MS = 3 * HEARTBEAT_MS;

/** Writes this worker's row now and every HEARTBEAT_MS until `stop()`, which also removes it. */
export function startHeartbeat(
  db: Db,
  workerId: string,
  engines: () => EngineReport[],
  onError: (error: unknown) => void = () => {},
  tools: () => ToolReport[] = () => [],
): { beat(): Promise<void>; stop(): Promise<void>; pause(): Promise<void> } {
  const beat = async () => {
    const row = {
      hostname: hostname(),
      pid: process.pid,
      engines: engines() as object[],
      tools: tools() as object[],
      seenAt: new Date(),
    };
    await db.workerHeartbeat.upsert({ where: { workerId }, create: { workerId, ...row }, update: row });
  };
  const timer = setInterval(() => beat().catch(onError), HEARTBEAT_MS);
  timer.unref();
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await db.workerHeartbeat.deleteMany({ where: { workerId } }).catch(onError);
    },
    /** stops beating but leaves the row (a sleeping worker's: `keepHeartbeatFresh` keeps it alive) */
    async pause() {
      clearInterval(timer);
    },
  };
}

/** Workers seen within WORKER_STALE_MS, most recently seen first. */
export async function liveWorkers(db: Db, now = new Date()): Promise<LiveWorker[]> {
  const since = new Date(now.getTime() - WORKER_STALE_MS);
  const rows = await db.workerHeartbeat.findMany({ where: { seenAt: { gt: since } }, orderBy: { seenAt: "desc" } });
  return rows.map((r) => {
    const all = Array.isArray(r.engines) ? (r.engines as unknown as EngineReport[]) : [];
    return {
      ...r,
      engines: all.filter((e) => e.kind !== "tts" && e.kind !== "live"),
      ttsEngines: all.filter((e) => e.kind === "tts"),
      liveEngines: all.filter((e) => e.kind === "live"),
      tools: Array.isArray(r.tools) ? (r.tools as unknown as ToolReport[]) : [],
    };
  });
}

/** Removes the rows of workers that died without saying goodbye, a day on (kept that long for diagnosis). */
export async function sweepDeadWorkers(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.workerHeartbeat.deleteMany({
    where: { seenAt: { lt: new Date(now.getTime() - 86_400_000) } },
  });
  return count;
}

/**
 * `npm start`'s worker child sleeps when idle (launcher/worker-process.ts): its last heartbeat stays,
 * kept fresh by the launcher, so the API goes on showing what it can do — a job, a live-caption session
 * or a webhook wakes it. `query` runs one statement (the launcher's HotSql). Returns `stop(remove)`.
 */
export function keepHeartbeatFresh(
  query: (text: string, values: unknown[]) => Promise<unknown>,
  workerId: string,
): { stop(remove: boolean): Promise<void> } {
  const touch = () => query(`UPDATE worker_heartbeats SET "seenAt" = now() WHERE "workerId" = $1`, [workerId]);
  void touch().catch(() => {});
  const timer = setInterval(() => void touch().catch(() => {}), HEARTBEAT_MS);
  timer.unref();
  return {
    async stop(remove) {
      clearInterval(timer);
      if (remove) await query(`DELETE FROM worker_heartbeats WHERE "workerId" = $1`, [workerId]).catch(() => {});
    },
  };
}
