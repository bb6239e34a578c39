import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Where uploaded media and generated files live: local disk under DATA_DIR/files by default, an
 * S3-compatible bucket (`s3-file-store.ts`) when several machines share the files. Keys are relative
 * paths made by the app ("media/12/<uuid>.mp3"), never user input.
 */
export interface FileStore {
  readonly kind: "local" | "s3";
  /** Streams `source` to `key`; the file appears only complete (a failed write leaves nothing). */
  put(key: string, source: Readable): Promise<{ size: number }>;
  /** Moves a finished local file into the store; the local file is gone afterwards, whatever happens. */
  putFile(key: string, localFile: string): Promise<{ size: number }>;
  /** The file's bytes, or the inclusive byte range; rejects when the file is not there. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** bytes, or null when there is no such file */
  size(key: string): Promise<number | null>;
  /** Removes the file; a file already gone is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Runs `use` with a local path holding the file, for tools that need one (ffmpeg, ffprobe): the
   * file itself on disk; a temporary copy from S3, removed when `use` settles.
   */
  withLocalCopy<T>(key: string, use: (localFile: string) => Promise<T>): Promise<T>;
  /** Every file whose key starts with `prefix` (migration and audits). */
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
}

/** Refuses keys that could leave the store's root ("../x", "/x", "a//b", backslashes). */
export function assertFileKey(key: string): void {
  const parts = key.split("/");
  if (key.includes("\\") || key.includes("\0") || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new Error(`not a file key: ${JSON.stringify(key)}`);
  }
}

export function localFileStore(root: string): FileStore {
  const base = path.resolve(root);
  const full = (key: string) => {
    assertFileKey(key);
    const p = path.resolve(base, key);
    if (!p.startsWith(base + path.sep)) throw new Error(`file key escapes the store: ${key}`);
    return p;
  };
  return {
    kind: "local",
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
    async putFile(key, localFile) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      try {
        const { size } = await stat(localFile);
        await moveFile(localFile, target);
        return { size };
      } finally {
        await rm(localFile, { force: true });
      }
    },
    async read(key, range) {
      const file = full(key);
      await stat(file); // a missing file rejects here, not later on the stream
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      const file = full(key);
      try {
        return (await stat(file)).size;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(full(key), { force: true });
    },
    async withLocalCopy(key, use) {
      const file = full(key);
      await stat(file);
      return use(file);
    },
    async *list(prefix = "") {
      for await (const file of walk(base)) {
        const key = path.relative(base, file).split(path.sep).join("/");
        if (key.startsWith(prefix) && !key.endsWith(".part")) yield { key, size: (await stat(file)).size };
      }
    },
  };
}

/** rename, or copy + remove across file systems (a temp dir on another disk). */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    const partial = `${to}.part`;
    try {
      await copyFile(from, partial);
      await rename(partial, to);
    } catch (copyError) {
      await rm(partial, { force: true });
      throw copyError;
    }
  }
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else if (entry.isFile()) yield p;
  }
}

/** A private temporary folder under `parent` (or the OS's), removed after `use` settles. */
export async function withTempDir<T>(use: (dir: string) => Promise<T>, parent?: string): Promise<T> {
  const root = parent ?? tmpdir();
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(path.join(root, "yuelu-"));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
