import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "./config.ts";

/**
 * The cookie-signing secret: COOKIE_SECRET when set (required in production); otherwise one is
 * generated on first start and kept under DATA_DIR so sessions survive restarts. The API and the
 * worker both read it (the live sockets' token is derived from it), and on first start they may ask
 * at once: the file appears whole and only once (a hard link of a finished temporary file), and the
 * one that loses the race reads the winner's.
 */
export async function cookieSecret(config: Config): Promise<string> {
  if (config.COOKIE_SECRET) return config.COOKIE_SECRET;
  const file = path.join(config.dataDir, "cookie-secret");
  const saved = await readSecret(file);
  if (saved) return saved;
  const secret = randomBytes(32).toString("hex");
  await mkdir(config.dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(temporary, secret, { mode: 0o600 });
  try {
    await link(temporary, file);
    return secret;
  } catch (error) {
    const winner = (error as NodeJS.ErrnoException).code === "EEXIST" ? await readSecret(file) : undefined;
    if (winner) return winner;
    // an old, too short file: replaced
    await rename(temporary, file);
    return secret;
  } finally {
    await rm(temporary, { force: true });
  }
}

async function readSecret(file: string): Promise<string | undefined> {
  try {
    const saved = (await readFile(file, "utf8")).trim();
    return saved.length >= 32 ? saved : undefined;
  } catch {
    // first start: none yet
    return undefined;
  }
}
