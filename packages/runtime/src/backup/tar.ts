import { createReadStream, type WriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";

/**
 * A plain POSIX (ustar) tar, written and read here so a backup is one file any `tar tf` can list,
 * with no archive library to depend on. Only regular files; names longer than ustar allows get a
 * PAX `path` record (what GNU tar and bsdtar read).
 */
const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name: string, size: number, type: "0" | "x", mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, "utf8");
  h.write(octal(0o600, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(size, 12), 124, "ascii");
  h.write(octal(Math.floor(mtime / 1000), 12), 136, "ascii");
  h.write("        ", 148, "ascii"); // checksum field counts as spaces while summing
  h.write(type, 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return h;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Writes entries one after another into `out`; `end()` adds the two zero blocks that close a tar. */
export class TarWriter {
  constructor(private readonly out: WriteStream) {}

  private write(chunk: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.out.write(chunk, (err) => (err ? reject(err) : resolve()));
    });
  }

  private async head(name: string, size: number): Promise<void> {
    const now = Date.now();
    if (Buffer.byteLength(name) > 99) {
      const record = paxRecord("path", name);
      await this.write(header("././@PaxHeader", record.length, "x", now));
      await this.write(Buffer.concat([record, padding(record.length)]));
      name = name.slice(0, 99);
    }
    await this.write(header(name, size, "0", now));
  }

  async add(name: string, data: Buffer): Promise<void> {
    await this.head(name, data.length);
    await this.write(Buffer.concat([data, padding(data.length)]));
  }

  /** Streams exactly `size` bytes of `source`; a source that gives more or fewer is an error. */
  async addStream(name: string, size: number, source: Readable): Promise<void> {
    await this.head(name, size);
    let written = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      written += chunk.length;
      if (written > size) throw new Error(`${name} grew while it was copied`);
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`${name} shrank while it was copied`);
    await this.write(padding(size));
  }

  async end(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    await new Promise<void>((resolve, reject) => {
      this.out.once("error", reject);
      this.out.end(() => resolve());
    });
  }
}

function paxRecord(key: string, value: string): Buffer {
  // "<length> key=value\n", where <length> counts its own digits too
  const body = Buffer.byteLength(` ${key}=${value}\n`);
  let length = body + 1;
  while (String(length).length + body !== length) length = String(length).length + body;
  return Buffer.from(`${length} ${key}=${value}\n`, "utf8");
}

export interface TarEntry {
  name: string;
  size: number;
  /** byte offset of the entry's data in the archive */
  offset: number;
}

/** The entries of a tar file (headers only: data is skipped), in order. Throws on a damaged header. */
export async function listTar(file: string): Promise<TarEntry[]> {
  const handle = await open(file, "r");
  try {
    const entries: TarEntry[] = [];
    const block = Buffer.alloc(BLOCK);
    let at = 0;
    let longName: string | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(block, 0, BLOCK, at);
      if (bytesRead < BLOCK) throw new Error("the archive ends in the middle of an entry (truncated)");
      if (block.every((b) => b === 0)) return entries;
      const stored = Number.parseInt(block.toString("ascii", 148, 156).replace(/\0.*$/, "").trim(), 8);
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
      if (sum !== stored) throw new Error(`damaged archive: bad header checksum at byte ${at}`);
      const size = Number.parseInt(block.toString("ascii", 124, 136).replace(/\0.*$/, "").trim() || "0", 8);
      const type = block.toString("ascii", 156, 157);
      const dataAt = at + BLOCK;
      if (type === "x") {
        const pax = Buffer.alloc(size);
        await handle.read(pax, 0, size, dataAt);
        longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(pax.toString("utf8"))?.[1];
      } else {
        const short = block.toString("utf8", 0, 100).replace(/\0.*$/s, "");
        const prefix = block.toString("utf8", 345, 500).replace(/\0.*$/s, "");
        entries.push({ name: longName ?? (prefix ? `${prefix}/${short}` : short), size, offset: dataAt });
        longName = undefined;
      }
      at = dataAt + size + ((BLOCK - (size % BLOCK)) % BLOCK);
    }
  } finally {
    await handle.close();
  }
}

/** The bytes of one entry, as a stream. */
export function readEntry(file: string, entry: TarEntry): Readable {
  if (entry.size === 0) return Readable.from([]);
  return createReadStream(file, { start: entry.offset, end: entry.offset + entry.size - 1 });
}
