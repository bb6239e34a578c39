import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type { FileStore } from "./file-store.ts";

export interface MigrationReport {
  /** files copied and verified */
  copied: number;
  /** files already in the target with the same bytes (an earlier, interrupted run) */
  skipped: number;
  bytes: number;
  /** files that could not be copied, or whose copy read back different (the copy is removed) */
  failed: { key: string; reason: string }[];
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Copies every file of `from` into `to` under the same key and verifies each copy by reading it
 * back (SHA-256 of both sides). Safe to run again: a file already there with the same bytes is
 * skipped. Nothing is removed from `from`; the operator switches FILE_STORE once it reports no failure.
 */
export async function migrateFiles(
  from: FileStore,
  to: FileStore,
  options: { concurrency?: number; onFile?: (key: string, outcome: "copied" | "skipped" | "failed") => void } = {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, skipped: 0, bytes: 0, failed: [] };
  const pending = new Set<Promise<void>>();
  const one = async (key: string, size: number) => {
    try {
      const source = await sha256(await from.read(key));
      if ((await to.size(key)) === size && (await sha256(await to.read(key))) === source) {
        report.skipped++;
        options.onFile?.(key, "skipped");
        return;
      }
      await to.put(key, await from.read(key));
      if ((await sha256(await to.read(key))) !== source) {
        await to.delete(key).catch(() => {});
        throw new Error("the copy reads back different bytes");
      }
      report.copied++;
      report.bytes += size;
      options.onFile?.(key, "copied");
    } catch (error) {
      report.failed.push({ key, reason: (error as Error).message });
      options.onFile?.(key, "failed");
    }
  };
  for await (const { key, size } of from.list()) {
    const task = one(key, size).finally(() => pending.delete(task));
    pending.add(task);
    if (pending.size >= (options.concurrency ?? 4)) await Promise.race(pending);
  }
  await Promise.all(pending);
  return report;
}
