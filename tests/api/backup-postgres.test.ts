import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createDb } from "@yuelu/db";
import {
  createBackup,
  loadConfig,
  openFileStore,
  RestoreRefused,
  restoreBackup,
  startBackupSchedule,
} from "@yuelu/runtime";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { countRows } from "../../packages/runtime/src/backup/embedded-snapshot.ts";
import { PG_DUMP_MISSING } from "../../packages/runtime/src/backup/postgres-dump.ts";
import { backupFileName } from "../../packages/runtime/src/backup/schedule.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createThrowawayDatabase, dropThrowawayDatabase } from "../helpers/database.ts";
import { seedOrder, seedRecord, seedUser } from "../helpers/factories.ts";
import { startS3 } from "../helpers/s3.ts";

/**
 * Issue 32 part 2 with PostgreSQL (DATABASE_URL): pg_dump of a database that is being written to,
 * restored with pg_restore into another, empty database; the local store's files beside it. Needs a
 * real PostgreSQL server and the postgresql-client tools (pg_dump, pg_restore): where DATABASE_URL is
 * set they must be installed, and this fails loudly, naming the package, when they are not.
 */
const external = inject("databaseMode") === "external";
let t: TestApp;
let work: string;
let restoreDb = "";
let restoreUrl = "";

beforeAll(async () => {
  if (!external) return;
  t = await createTestApp({ DATA_DIR: await mkdtemp(path.join(tmpdir(), "yuelu-pgbackup-")) });
  work = await mkdtemp(path.join(tmpdir(), "yuelu-pgbackup-work-"));
  restoreDb = `yuelu_restore_${randomBytes(4).toString("hex")}`;
  restoreUrl = await createThrowawayDatabase(inject("serverUrl"), restoreDb);
});

afterAll(async () => {
  if (!external) return;
  await t?.close();
  await dropThrowawayDatabase(inject("serverUrl"), restoreDb);
  await rm(work, { recursive: true, force: true });
  await rm(t.config.dataDir, { recursive: true, force: true });
});

describe.runIf(external)("backup and restore with PostgreSQL", () => {
  it("backs up with pg_dump while writes go on, and restores every row and file into an empty database", async () => {
    const user = await seedUser(t.db, { beans: 30 });
    const audio = path.join(work, "a.mp3");
    await writeFile(audio, randomBytes(50_000));
    const record = await seedRecord(t.db, { userId: user.id, audioFile: audio, files: t.files });
    await t.db.transcript.create({
      data: {
        fileId: record.fileId,
        asrResult: [{ spkName: "1", startTime: 0, endTime: 900, text: "你好" }],
        language: "zh",
      },
    });
    await seedOrder(t.db, { userId: user.id });
    await t.db.notification.create({
      data: { userId: user.id, notifyTitle: "标题", notifyText: "消息", senderName: "test" },
    });

    // A writer that adds a record and its file, again and again, while the backup runs.
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        await seedRecord(t.db, { userId: user.id, audioFile: audio, files: t.files });
        written++;
      }
    })();
    const out = path.join(work, "pg.tar");
    const report = await createBackup(t.config, { out });
    writing = false;
    await writes;
    expect(written).toBeGreaterThan(0);
    const { manifest } = report;
    expect(manifest.database.kind).toBe("postgres");
    const records = manifest.database.rowCounts["public.audio_records"] ?? 0;
    expect(records).toBeGreaterThanOrEqual(1);
    expect(records).toBeLessThanOrEqual(1 + written);
    // every record of the snapshot has its file (files of later records may be there too)
    expect(manifest.files.length).toBeGreaterThanOrEqual(records);

    const target = loadConfig({
      DATABASE_URL: restoreUrl,
      DATA_DIR: path.join(work, "restored-data"),
      NODE_ENV: "test",
    });
    const restored = await restoreBackup(target, out);
    expect(restored.rowCounts).toEqual(manifest.database.rowCounts);
    const db = createDb(restoreUrl, { poolSize: 1 });
    try {
      const copy = await db.transcript.findUniqueOrThrow({ where: { fileId: record.fileId } });
      expect(copy.asrResult).toEqual([{ spkName: "1", startTime: 0, endTime: 900, text: "你好" }]);
      expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).beanBalance).toBe(30);
      expect(await db.order.count({ where: { userId: user.id } })).toBe(1);
      expect(await db.beanLedger.count({ where: { userId: user.id } })).toBe(1);
      expect(await db.notification.count({ where: { userId: user.id } })).toBe(1);
      for (const r of await db.audioRecord.findMany({ select: { storageKey: true } })) {
        const file = path.join(target.dataDir, "files", r.storageKey);
        expect(existsSync(file)).toBe(true);
        const sha = createHash("sha256")
          .update(await readFile(file))
          .digest("hex");
        expect(sha).toBe(manifest.files.find((f) => f.key === r.storageKey)?.sha256);
      }
      // the restored sequences go on past the restored rows
      const next = await seedRecord(db, { userId: user.id });
      expect(next.fileId).toBeGreaterThan(record.fileId);
    } finally {
      await db.$disconnect();
    }

    // A second restore into the now-filled database is refused, with nothing changed.
    const counts = await countRowsOf(restoreUrl);
    await expect(restoreBackup({ ...target, DATA_DIR: path.join(work, "other") }, out)).rejects.toThrow(
      /already has \d+ tables/,
    );
    expect(await countRowsOf(restoreUrl)).toEqual(counts);
  }, 120_000);

  it("names the package when pg_dump is missing, and leaves no file behind", async () => {
    const out = path.join(work, "no-pgdump.tar");
    const previous = process.env.PG_DUMP_PATH;
    process.env.PG_DUMP_PATH = "/nonexistent/pg_dump";
    try {
      await expect(createBackup(t.config, { out })).rejects.toThrow(PG_DUMP_MISSING);
    } finally {
      if (previous === undefined) delete process.env.PG_DUMP_PATH;
      else process.env.PG_DUMP_PATH = previous;
    }
    expect((await readdir(work)).filter((n) => n.startsWith("no-pgdump"))).toEqual([]);
    expect(PG_DUMP_MISSING).toMatch(/apt-get install postgresql-client/);
  });

  it("runs scheduled backups on one node only and keeps BACKUP_KEEP of them", async () => {
    const dir = path.join(work, "scheduled");
    const config = { ...t.config, BACKUP_CRON: "0 3 * * *", BACKUP_KEEP: 2, BACKUP_DIR: dir };
    const schedule = startBackupSchedule(config, { info() {}, error() {} });
    if (!schedule) throw new Error("BACKUP_CRON is set: a schedule was expected");
    const other = startBackupSchedule(config, { info() {}, error() {} });
    try {
      expect(schedule.next().getHours()).toBe(3);
      const days = ["2026-11-24", "2026-11-25", "2026-11-26"].map((d) => new Date(`${d}T03:00:00Z`));
      for (const day of days) expect(await schedule.runOnce(day)).toBe(path.join(dir, backupFileName(day)));
      // the same minute again (another node, late): already done
      expect(await other?.runOnce(days[2] as Date)).toBeNull();
      expect((await readdir(dir)).sort()).toEqual(days.slice(1).map(backupFileName));
      // while another node holds the lock (its backup running), this one leaves the minute to it
      const holder = new pg.Client({ connectionString: t.databaseUrl });
      await holder.connect();
      try {
        await holder.query("SELECT pg_advisory_lock(7242001)");
        expect(await schedule.runOnce(new Date("2026-11-27T03:00:00Z"))).toBeNull();
      } finally {
        await holder.end();
      }
    } finally {
      await schedule.stop();
      await other?.stop();
    }
    expect(startBackupSchedule(t.config, { info() {}, error() {} })).toBeUndefined();
  }, 120_000);

  it("with FILE_STORE=s3: names the bucket as external, or copies its objects with --include-s3", async () => {
    const s3 = await startS3("backup-s3");
    try {
      const config = loadConfig({
        ...s3.env,
        DATABASE_URL: t.databaseUrl,
        DATA_DIR: t.config.dataDir,
        NODE_ENV: "test",
      });
      const store = await openFileStore(config);
      const bytes = randomBytes(10_000);
      await store.put("media/1/in-the-bucket.wav", Readable.from([bytes]));
      const without = await createBackup(config, { out: path.join(work, "s3-external.tar") });
      expect(without.manifest.files).toEqual([]);
      expect(without.manifest.external).toEqual({ kind: "s3", bucket: "backup-s3", endpoint: s3.endpoint });
      const withS3 = await createBackup(config, { out: path.join(work, "s3-included.tar"), includeS3: true });
      expect(withS3.manifest.external).toBeNull();
      const sha = createHash("sha256").update(bytes).digest("hex");
      expect(withS3.manifest.files).toContainEqual({ key: "media/1/in-the-bucket.wav", size: 10_000, sha256: sha });
    } finally {
      await s3.close();
    }
  }, 120_000);

  it("refuses a file that is not a backup", async () => {
    const junk = path.join(work, "junk.tar");
    await writeFile(junk, Buffer.alloc(2048, 7));
    await expect(restoreBackup(t.config, junk)).rejects.toBeInstanceOf(RestoreRefused);
  });
});

async function countRowsOf(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await countRows((sql) => client.query(sql));
  } finally {
    await client.end();
  }
}
