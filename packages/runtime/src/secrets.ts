import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "./config.ts";

/**
 * The cookie-signing secret: COOKIE_SECRET when set (required in production); otherwise one is
 * generated on first start and kept under DATA_DIR so sessions survive restarts.
 */
export async function cookieSecret(config: Config): Promise<string> {
  if (config.COOKIE_SECRET) return config.COOKIE_SECRET;
  const file = path.join(config.dataDir, "cookie-secret");
  try {
    const saved = (await readFile(file, "utf8")).trim();
    if (saved.length >= 32) return saved;
  } catch {
    // first start: fall through and create it
  }
  const secret = randomBytes(32).toString("hex");
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}
