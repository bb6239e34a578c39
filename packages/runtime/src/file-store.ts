import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Where uploaded media and generated files live. Local disk under DATA_DIR/files by default; an
 * S3-compatible implementation of this interface serves multi-machine installs.
 * Keys are relative paths made by the app (never user input).
 */
export interface FileStore {
  /** Streams `source` to `key`; the file appears only complete (a failed write leaves nothing). */
  put(key: string, source: Readable): Promise<{ size: number }>;
  read(key: string, range?: { start: number; end: number }): Readable;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** A local path for tools that need one (ffmpeg/ffprobe). */
  localPath(key: string): string;
}

export function localFileStore(root: string): FileStore {
  const full = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error(`file key escapes the store: ${key}`);
    return p;
  };
  return {
    async put(key, source) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.part`;
      let size = 0;
      source.on("data", (chunk: Buffer) => {
        size += chunk.length;
      });
      try {
        await pipeline(source, createWriteStream(partial));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size };
    },
    read(key, range) {
      return createReadStream(full(key), range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      try {
        return (await stat(full(key))).size;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(full(key), { force: true });
    },
    localPath: full,
  };
}
