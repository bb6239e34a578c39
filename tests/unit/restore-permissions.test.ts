import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createBackup, loadConfig, restoreBackup } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * A restored embedded install is as private as a freshly made one (docs/backups.md): folders 700,
 * files 600 — PGlite writes its data folder 755/644, which let every account on the machine read the
 * database (issue 40). The umask is opened to 022 for the test, the common default, so the test sees
 * what PGlite really leaves behind.
 */

let work: string;
let umask: number;

beforeAll(async () => {
  umask = process.umask(0o022);
  work = await mkdtemp(path.join(tmpdir(), "yuelu-restore-modes-"));
});
afterAll(async () => {
  process.umask(umask);
  await rm(work, { recursive: true, force: true });
});

/** An embedded install with a table, a recording and a cookie secret, as `npm start` leaves one stopped. */
async function stoppedInstall(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, "pgdata"));
  await db.exec("CREATE TABLE notes (id int PRIMARY KEY, body text); INSERT INTO notes VALUES (1, 'secret minutes')");
  await db.close();
  await mkdir(path.join(dataDir, "files", "media", "1"), { recursive: true });
  await writeFile(path.join(dataDir, "files", "media", "1", "a.mp3"), "audio");
  await writeFile(path.join(dataDir, "cookie-secret"), "s".repeat(48));
}

interface Mode {
  path: string;
  kind: "dir" | "file";
  mode: string;
}

async function modesUnder(dir: string): Promise<Mode[]> {
  const out: Mode[] = [{ path: ".", kind: "dir", mode: ((await stat(dir)).mode & 0o777).toString(8) }];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (!entry.isDirectory() && !entry.isFile()) continue;
    out.push({
      path: path.relative(dir, full),
      kind: entry.isDirectory() ? "dir" : "file",
      mode: ((await stat(full)).mode & 0o777).toString(8),
    });
  }
  return out;
}

describe("npm run restore into an empty DATA_DIR (embedded database)", () => {
  it("leaves every folder 700 and every file 600, the database's included", async () => {
    const source = path.join(work, "source");
    await stoppedInstall(source);
    const backup = path.join(work, "backup.tar");
    await createBackup(loadConfig({ NODE_ENV: "test", DATA_DIR: source }), { out: backup });

    const restored = path.join(work, "restored");
    const report = await restoreBackup(loadConfig({ NODE_ENV: "test", DATA_DIR: restored }), backup);
    expect(report.rowCounts["public.notes"]).toBe(1);

    const modes = await modesUnder(restored);
    expect(modes.filter((m) => m.path.startsWith("pgdata")).length).toBeGreaterThan(10);
    expect(modes.map((m) => m.path)).toEqual(expect.arrayContaining(["cookie-secret", "files/media/1/a.mp3"]));
    const loose = modes.filter((m) => m.mode !== (m.kind === "dir" ? "700" : "600"));
    expect(loose).toEqual([]);
  }, 60_000);
});
