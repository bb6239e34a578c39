import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import type { Pcm } from "./pcm.ts";

/**
 * A decoded recording kept in a file instead of in memory (issue 44: 3 hours are 346 MB of 16-bit samples,
 * more than the rest of a transcription holds): `slice` reads the window asked for, and what is read often
 * stays in the system's page cache, which gives it back under pressure. The file is unlinked as soon as it is
 * open, so nothing is left behind whatever becomes of the process; `close` lets it go.
 */
export class PcmSpool {
  readonly fd: number;
  private bytes = 0;
  /** where the system cannot unlink an open file (Windows): unlinked at close */
  private readonly leftover: string | undefined;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `yuelu-pcm-${randomUUID()}.s16`);
    this.fd = openSync(file, "w+", 0o600);
    let leftover: string | undefined;
    try {
      unlinkSync(file);
    } catch {
      leftover = file;
    }
    this.leftover = leftover;
  }

  /** Appends 16-bit little-endian samples (a whole number of them). */
  append(data: Uint8Array): void {
    let done = 0;
    while (done < data.length) done += writeSync(this.fd, data, done, data.length - done, this.bytes + done);
    this.bytes += data.length;
  }

  /** The recording written so far, read from the file; its `close` closes the file. */
  finish(): Pcm & { close(): void } {
    return spooledPcm({ fd: this.fd, length: this.bytes / 2 }, () => this.close());
  }

  close(): void {
    closeSync(this.fd);
    if (this.leftover) {
      try {
        unlinkSync(this.leftover);
      } catch {}
    }
  }
}

/** A spooled recording's file, as another thread of this process reads it (descriptors are the process's). */
export interface SpoolShare {
  fd: number;
  length: number;
}

const shares = new WeakMap<Pcm, SpoolShare>();

/** The spool file behind `pcm`, when it is a spooled recording. */
export const spoolOf = (pcm: Pcm): SpoolShare | undefined => shares.get(pcm);

/**
 * The recording in a spool file. `close` (when given) closes the file; reading after it is an error, never
 * another file's bytes (a closed descriptor's number is soon another file's).
 */
export function spooledPcm(share: SpoolShare, close?: () => void): Pcm & { close(): void } {
  const { fd, length } = share;
  let open = true;
  const read = (start: number, end: number): Int16Array => {
    if (!open) throw new Error("the spooled recording was read after it was closed");
    const raw = new Int16Array(Math.max(0, end - start));
    let done = 0;
    while (done < raw.byteLength) {
      const n = readSync(fd, raw, done, raw.byteLength - done, start * 2 + done);
      if (n === 0) break;
      done += n;
    }
    return raw;
  };
  let all: Int16Array | undefined;
  const pcm = {
    length,
    /** all of it read into memory on first use, and kept: a copy as long as the recording (short clips, tests) */
    get samples() {
      all ??= read(0, length);
      return all;
    },
    slice(start: number, end: number) {
      const s = Math.max(0, Math.floor(start));
      const e = Math.min(length, Math.ceil(end));
      const raw = read(s, Math.max(s, e));
      const out = new Float32Array(raw.length);
      for (let i = 0; i < raw.length; i++) out[i] = raw[i]! / 32768;
      return out;
    },
    close() {
      if (!open) return;
      open = false;
      close?.();
    },
  };
  shares.set(pcm, share);
  return pcm;
}
