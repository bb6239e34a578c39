import { chmod, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/**
 * The install's data folder is private to the user that runs it: folders 700, files 600. It holds the
 * database's files, the recordings, the cookie secret and the embedded database's password, so another
 * account on the machine must not read any of it. PGlite (and a tar or restore that makes folders with
 * the process's umask) writes 755/644 or wider, so whatever writes into the folder tightens after itself.
 */

/** Makes `dir` (and any missing parent) and sets it to 700, also when it already existed. */
export async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/** Folders 700 and files 600 under `dir`, `dir` itself included. Links are left alone (never followed). */
export async function tighten(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await tighten(full);
    else if (entry.isFile()) await chmod(full, 0o600);
  }
}
