import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { chmod, mkdir, readdir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Config } from "../config.ts";
import { assertFileKey } from "../file-store.ts";
import { tighten } from "../private-files.ts";
import { loadSnapshot } from "./embedded-snapshot.ts";
import { type BackupManifest, BackupManifestSchema, fileEntry, MANIFEST_ENTRY } from "./manifest.ts";
import { existingTables, restorePostgres } from "./postgres-dump.ts";
import { listTar, readEntry, type TarEntry } from "./tar.ts";

/**
 * `npm run restore -- FILE`: into an empty DATA_DIR (embedded database) or an empty database
 * (DATABASE_URL) with an empty local store. It never overwrites anything, checks every checksum of
 * the archive before it writes a byte, and builds the new install in a temporary folder beside
 * DATA_DIR that it renames into place only when the database's row counts match the manifest —
 * so a refused or failed restore leaves nothing behind.
 */
export class RestoreRefused extends Error {}

export interface RestoreReport {
  manifest: BackupManifest;
  dataDir: string;
  rowCounts: Record<string, number>;
}

async function entryBytes(file: string, entry: TarEntry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of readEntry(file, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function sha256Of(file: string, entry: TarEntry): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of readEntry(file, entry)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Reads and checks the whole archive: the manifest, and every entry it lists against its size and SHA-256. */
export async function verifyBackup(
  file: string,
): Promise<{ manifest: BackupManifest; entries: Map<string, TarEntry> }> {
  let list: TarEntry[];
  try {
    list = await listTar(file);
  } catch (error) {
    throw new RestoreRefused(`${file} is not a readable backup: ${(error as Error).message}`);
  }
  const entries = new Map(list.map((e) => [e.name, e]));
  const manifestEntry = entries.get(MANIFEST_ENTRY);
  if (!manifestEntry) throw new RestoreRefused(`${file} has no ${MANIFEST_ENTRY}: not a Yuelu backup, or cut short`);
  let manifest: BackupManifest;
  try {
    manifest = BackupManifestSchema.parse(JSON.parse((await entryBytes(file, manifestEntry)).toString("utf8")));
  } catch (error) {
    throw new RestoreRefused(`${MANIFEST_ENTRY} is damaged: ${(error as Error).message.slice(0, 300)}`);
  }
  const expected = [
    { name: manifest.database.entry, size: manifest.database.size, sha256: manifest.database.sha256 },
    ...manifest.files.map((f) => ({ name: fileEntry(f.key), size: f.size, sha256: f.sha256 })),
    ...(manifest.cookieSecret ? [{ name: manifest.cookieSecret.entry, ...manifest.cookieSecret }] : []),
  ];
  for (const want of expected) {
    const entry = entries.get(want.name);
    if (!entry) throw new RestoreRefused(`${want.name} is missing from the archive`);
    if (entry.size !== want.size)
      throw new RestoreRefused(`${want.name}: ${entry.size} bytes, the manifest says ${want.size}`);
    if ((await sha256Of(file, entry)) !== want.sha256) {
      throw new RestoreRefused(`${want.name} is damaged: its SHA-256 differs from the manifest's`);
    }
  }
  for (const f of manifest.files) assertFileKey(f.key);
  return { manifest, entries };
}

/** An absent or empty folder: what a restore may write into. */
async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

function sameCounts(want: Record<string, number>, got: Record<string, number>): string | null {
  for (const [table, n] of Object.entries(want)) {
    if (got[table] !== n) return `${table}: ${got[table] ?? "no table"} rows restored, ${n} in the backup`;
  }
  return null;
}

/** Writes the archived files under `root` (a folder of the temporary install), checking each again. */
async function writeFiles(file: string, manifest: BackupManifest, entries: Map<string, TarEntry>, root: string) {
  for (const f of manifest.files) {
    const entry = entries.get(fileEntry(f.key)) as TarEntry;
    const target = path.join(root, ...f.key.split("/"));
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const hash = createHash("sha256");
    const source = readEntry(file, entry);
    source.on("data", (chunk: Buffer) => hash.update(chunk));
    await pipeline(source, createWriteStream(target, { mode: 0o600 }));
    if (hash.digest("hex") !== f.sha256) throw new Error(`${f.key} changed while it was restored`);
  }
}

export async function restoreBackup(
  config: Config,
  file: string,
  log: (msg: string) => void = () => {},
): Promise<RestoreReport> {
  const { manifest, entries } = await verifyBackup(path.resolve(file));
  log(`checked ${manifest.files.length} files and the database dump against the manifest`);
  const target = config.DATABASE_URL ? "postgres" : "embedded";
  if (manifest.database.kind !== target) {
    throw new RestoreRefused(
      `this backup holds ${manifest.database.kind === "embedded" ? "an embedded (PGlite)" : "a PostgreSQL"} database; ` +
        (target === "postgres"
          ? "unset DATABASE_URL to restore it"
          : "set DATABASE_URL to an empty database to restore it"),
    );
  }
  if (manifest.external === null && manifest.files.length && config.FILE_STORE === "s3") {
    throw new RestoreRefused(
      "this backup holds local files: restore it with FILE_STORE=local, then npm run admin to move them",
    );
  }
  const dataDir = config.dataDir;
  const dbEntry = entries.get(manifest.database.entry) as TarEntry;

  if (target === "embedded") {
    if (!(await isEmptyOrAbsent(dataDir))) {
      throw new RestoreRefused(
        `${dataDir} is not empty: a restore never overwrites an install (choose an empty DATA_DIR)`,
      );
    }
    const temp = `${dataDir.replace(/[/\\]+$/, "")}.restoring-${randomBytes(4).toString("hex")}`;
    await mkdir(temp, { recursive: true, mode: 0o700 });
    try {
      const rowCounts = await loadSnapshot(path.join(temp, "pgdata"), await entryBytes(file, dbEntry));
      const wrong = sameCounts(manifest.database.rowCounts, rowCounts);
      if (wrong) throw new Error(`the restored database differs from the backup: ${wrong}`);
      await writeFiles(file, manifest, entries, path.join(temp, "files"));
      await writeSecret(file, manifest, entries, temp);
      // PGlite wrote the database 755/644: the install is private (700/600), as a freshly made one is
      await tighten(temp);
      // An empty DATA_DIR that exists is replaced by the finished install in one rename.
      await rmdir(dataDir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") throw err;
      });
      await mkdir(path.dirname(dataDir), { recursive: true });
      await rename(temp, dataDir);
      return { manifest, dataDir, rowCounts };
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  // PostgreSQL: an empty database, and an empty local store (unless the files live in S3).
  const databaseUrl = config.DATABASE_URL as string;
  const tables = await existingTables(databaseUrl);
  if (tables.length) {
    throw new RestoreRefused(
      `the database already has ${tables.length} tables (${tables.slice(0, 3).join(", ")}…): restore into an empty one`,
    );
  }
  const filesDir = path.join(dataDir, "files");
  if (!(await isEmptyOrAbsent(filesDir)))
    throw new RestoreRefused(`${filesDir} is not empty: a restore never overwrites files`);
  if (manifest.cookieSecret && existsSync(path.join(dataDir, "cookie-secret"))) {
    throw new RestoreRefused(`${dataDir}/cookie-secret exists: a restore never overwrites it`);
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const temp = path.join(dataDir, `.restoring-${randomBytes(4).toString("hex")}`);
  await mkdir(temp, { mode: 0o700 });
  try {
    await writeFiles(file, manifest, entries, path.join(temp, "files"));
    await writeSecret(file, manifest, entries, temp);
    const dumpFile = path.join(temp, manifest.database.entry);
    await pipeline(readEntry(file, dbEntry), createWriteStream(dumpFile, { mode: 0o600 }));
    const rowCounts = await restorePostgres(databaseUrl, dumpFile);
    const wrong = sameCounts(manifest.database.rowCounts, rowCounts);
    if (wrong) throw new Error(`the restored database differs from the backup: ${wrong}`);
    await rm(filesDir, { recursive: true, force: true }); // empty, checked above
    if (manifest.files.length) await rename(path.join(temp, "files"), filesDir);
    if (manifest.cookieSecret) await rename(path.join(temp, "cookie-secret"), path.join(dataDir, "cookie-secret"));
    return { manifest, dataDir, rowCounts };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function writeSecret(file: string, manifest: BackupManifest, entries: Map<string, TarEntry>, root: string) {
  if (!manifest.cookieSecret) return;
  const bytes = await entryBytes(file, entries.get(manifest.cookieSecret.entry) as TarEntry);
  await writeFile(path.join(root, "cookie-secret"), bytes, { mode: 0o600 });
  await chmod(path.join(root, "cookie-secret"), 0o600);
}
