import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import type { Config } from "../config.ts";
import { type FileStore, localFileStore } from "../file-store.ts";
import { requestSnapshot, snapshotDataDir } from "./embedded-snapshot.ts";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupManifest,
  BackupManifestSchema,
  fileEntry,
  MANIFEST_ENTRY,
} from "./manifest.ts";
import { dumpPostgres } from "./postgres-dump.ts";
import { TarWriter } from "./tar.ts";

/**
 * `npm run backup -- --out FILE`: one tar holding the database snapshot, then every file of the
 * store, then manifest.json. Consistency rule: the snapshot is taken first and the files are copied
 * after it, so every file a row of the snapshot names is there (files are written before the rows
 * that name them, and a stored file never changes); a file written after the snapshot may be in the
 * archive too, named by no row. The one exception is a file deleted for good between the snapshot and
 * its copy (a record purged from the bin at that moment): it is left out and counted in `missing`.
 */
export interface BackupOptions {
  out: string;
  /** FILE_STORE=s3: copy the bucket's objects into the archive too */
  includeS3?: boolean;
  log?: (msg: string) => void;
}

export interface BackupReport {
  file: string;
  manifest: BackupManifest;
  /** files listed by the store that were gone when their turn came */
  missing: string[];
}

const APP_VERSION_FILE = path.resolve(import.meta.dirname, "../../../../package.json");

async function appVersion(): Promise<string> {
  try {
    return String(JSON.parse(await readFile(APP_VERSION_FILE, "utf8")).version ?? "unknown");
  } catch {
    return "unknown";
  }
}

/** Passes bytes through, hashing them. */
function hashing(source: Readable): { stream: Readable; digest: () => string } {
  const hash = createHash("sha256");
  const through = new PassThrough();
  source.on("data", (chunk: Buffer) => hash.update(chunk));
  source.on("error", (err) => through.destroy(err));
  source.pipe(through);
  return { stream: through, digest: () => hash.digest("hex") };
}

export async function createBackup(config: Config, options: BackupOptions): Promise<BackupReport> {
  const log = options.log ?? (() => {});
  const out = path.resolve(options.out);
  if (existsSync(out)) throw new Error(`${out} already exists: a backup never overwrites a file`);
  await mkdir(path.dirname(out), { recursive: true });
  const partial = `${out}.part`;
  const dbPartial = `${out}.db.part`;
  const created = new Date().toISOString();
  try {
    // 1. The database, first.
    let database: BackupManifest["database"];
    let dbBytes: Buffer | undefined;
    if (config.DATABASE_URL) {
      log("dumping PostgreSQL with pg_dump");
      const { rowCounts } = await dumpPostgres(config.DATABASE_URL, dbPartial);
      database = { kind: "postgres", entry: "database.pgdump", size: 0, sha256: "", rowCounts };
    } else {
      if (!existsSync(path.join(config.dataDir, "pgdata"))) {
        throw new Error(`no embedded database under ${config.dataDir} (is DATA_DIR right?)`);
      }
      const running = await requestSnapshot(config.dataDir);
      log(running ? "snapshot taken by the running server" : "no server running: snapshot of the data folder");
      const snapshot = running ?? (await snapshotDataDir(config.dataDir));
      dbBytes = snapshot.dump;
      database = {
        kind: "embedded",
        entry: "database.pglite.tar.gz",
        size: dbBytes.length,
        sha256: createHash("sha256").update(dbBytes).digest("hex"),
        rowCounts: snapshot.rowCounts,
      };
    }

    const tar = new TarWriter(createWriteStream(partial, { mode: 0o600 }));
    if (dbBytes) {
      await tar.add(database.entry, dbBytes);
    } else {
      const size = (await stat(dbPartial)).size;
      const { stream, digest } = hashing(createReadStream(dbPartial));
      await tar.addStream(database.entry, size, stream);
      database = { ...database, size, sha256: digest() };
    }

    // 2. The files, after the snapshot.
    const files: BackupManifest["files"] = [];
    const missing: string[] = [];
    let external: BackupManifest["external"] = null;
    let store: FileStore | undefined;
    if (config.FILE_STORE === "s3") {
      if (options.includeS3) {
        const { openFileStore } = await import("../platform.ts");
        store = await openFileStore(config);
      } else {
        external = { kind: "s3", bucket: config.S3_BUCKET ?? "", endpoint: config.S3_ENDPOINT ?? null };
        log(`files stay in the S3 bucket ${config.S3_BUCKET}: back it up separately (--include-s3 copies it)`);
      }
    } else {
      store = localFileStore(path.join(config.dataDir, "files"));
    }
    if (store) {
      const keys: { key: string; size: number }[] = [];
      for await (const item of store.list()) keys.push(item);
      for (const { key, size } of keys) {
        let source: Readable;
        try {
          source = await store.read(key);
        } catch {
          missing.push(key);
          continue;
        }
        const { stream, digest } = hashing(source);
        await tar.addStream(fileEntry(key), size, stream);
        files.push({ key, size, sha256: digest() });
      }
      log(`${files.length} files copied${missing.length ? `, ${missing.length} deleted meanwhile` : ""}`);
    }

    // 3. The generated cookie secret, so sessions survive the restore.
    let cookieSecret: BackupManifest["cookieSecret"] = null;
    const secretFile = path.join(config.dataDir, "cookie-secret");
    if (!config.COOKIE_SECRET && existsSync(secretFile)) {
      const bytes = await readFile(secretFile);
      cookieSecret = {
        entry: "secrets/cookie-secret",
        size: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      };
      await tar.add(cookieSecret.entry, bytes);
    }

    const rows = Object.values(database.rowCounts).reduce((a, b) => a + b, 0);
    const manifest: BackupManifest = BackupManifestSchema.parse({
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created,
      appVersion: await appVersion(),
      database,
      files,
      external,
      cookieSecret,
      totals: {
        tables: Object.keys(database.rowCounts).length,
        rows,
        files: files.length,
        fileBytes: files.reduce((a, f) => a + f.size, 0),
      },
    });
    await tar.add(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await tar.end();
    await rename(partial, out);
    return { file: out, manifest, missing };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(dbPartial, { force: true });
  }
}
