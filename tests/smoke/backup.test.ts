import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows } from "../../packages/runtime/src/backup/embedded-snapshot.ts";
import { type BackupManifest, BackupManifestSchema } from "../../packages/runtime/src/backup/manifest.ts";
import { listTar, readEntry } from "../../packages/runtime/src/backup/tar.ts";

/**
 * Issue 32 part 2: `npm run backup` of a running embedded install while a client keeps writing,
 * `npm run restore` into a new folder, and the restored install serves the same user, transcript and
 * audio byte for byte. The real commands run in child processes, as an operator (or another tool) runs them.
 */
const root = path.resolve(import.meta.dirname, "../..");
const exec = promisify(execFile);
const portA = 19_000 + (process.pid % 500);
const portB = portA + 500;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field below
type Json = any;

interface Install {
  dataDir: string;
  base: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

function installEnv(dataDir: string, port?: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "info", WORKER_MODE: "off" };
  if (port) Object.assign(env, { PORT: String(port), HOST: "127.0.0.1" });
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_ENV;
  delete env.COOKIE_SECRET;
  delete env.BACKUP_CRON;
  return env;
}

async function startInstall(dataDir: string, port: number): Promise<Install> {
  let output = "";
  // The workers stay off: this test needs no transcription, and the machine's cores are shared.
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: installEnv(dataDir, port),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const start = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output.slice(-3000)}`);
    if (Date.now() - start > 180_000) throw new Error(`not ready:\n${output.slice(-3000)}`);
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    dataDir,
    base,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** `npm run <script> -- args` with DATA_DIR; answers its exit code and output (never throws). */
async function npmRun(script: string, args: string[], dataDir: string) {
  try {
    const { stdout, stderr } = await exec("npm", ["run", "--silent", script, "--", ...args], {
      cwd: root,
      env: installEnv(dataDir),
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

async function readManifest(file: string): Promise<BackupManifest> {
  const entry = (await listTar(file)).find((e) => e.name === "manifest.json");
  if (!entry) throw new Error("no manifest");
  const chunks: Buffer[] = [];
  for await (const c of readEntry(file, entry)) chunks.push(c as Buffer);
  return BackupManifestSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
}

async function sha256File(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

async function embeddedClient(dataDir: string): Promise<pg.Client> {
  const url = (await readFile(path.join(dataDir, "embedded-postgres.url"), "utf8")).trim();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

let work: string;
let a: Install;
let b: Install | undefined;
let cookie = "";
let fileId = 0;
let audio: Buffer;
let backupFile: string;
let manifest: BackupManifest;
const restoredDir = () => path.join(work, "restored");

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "yuelu-backup-"));
  a = await startInstall(path.join(work, "original"), portA);
}, 240_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("npm run backup / npm run restore on a running embedded install", () => {
  it("fills the install: a user, an uploaded recording with its transcript, an order, beans, a message", async () => {
    const phone = "13700000032";
    const json = (r: Response) => r.json() as Promise<Json>;
    const post = (url: string, body: object) =>
      fetch(`${a.base}${url}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, lang: "en" },
        body: JSON.stringify(body),
      });
    const sent = await json(await post("/account/api/sms/send", { phone }));
    const login = await post("/account/api/login", { phone, code: sent.data.devCode });
    cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const userId = (await json(login)).data.userId;

    const wav = path.join(work, "tone.wav");
    await exec("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=2",
      "-ar",
      "16000",
      wav,
    ]);
    audio = await readFile(wav);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(audio)]), "tone.wav");
    const uploaded = await json(
      await fetch(`${a.base}/voice_yuelu/api/v1/audio/upload`, { method: "POST", headers: { cookie }, body: form }),
    );
    expect(uploaded.status_code).toBe(1);
    fileId = uploaded.data.fileId;

    const db = await embeddedClient(a.dataDir);
    try {
      // What a worker writes when it finishes (the workers are off here), then an edit through the API.
      const segments = [{ spkName: "1", startTime: 0, endTime: 2000, text: "备份之前的一句话。" }];
      await db.query(
        `INSERT INTO transcripts ("fileId", "asrResult", language, "updatedAt") VALUES ($1, $2, 'zh', now())`,
        [fileId, JSON.stringify(segments)],
      );
      await db.query(`UPDATE audio_records SET "fileStatus" = 2 WHERE "fileId" = $1`, [fileId]);
      const edited = await json(
        await post("/voice_yuelu/api/v1/audio/text/update_text", {
          fileId,
          asrResult: [{ ...segments[0], text: "Backed up, then restored: 一字不差。" }],
        }),
      );
      expect(edited.status_code).toBe(1);

      const { rows: goods } = await db.query(`SELECT "goodsId" FROM pay_goods ORDER BY "goodsId" LIMIT 1`);
      const order = await json(
        await post("/voice_yuelu/api/v1/pay/execute_payment", {
          goodsId: goods[0].goodsId,
          payAgent: "alipay",
          source: 0,
        }),
      );
      expect(order.status_code).toBe(1);
      expect((await json(await post("/voice_yuelu/api/v1/store/sign?source=0", {}))).status_code).toBe(1);
      await db.query(
        `INSERT INTO notifications ("userId", "notifyTitle", "notifyText", "senderName") VALUES ($1, '备份', '一条消息', 'test')`,
        [userId],
      );
      const { rows } = await db.query(
        `SELECT (SELECT count(*) FROM orders WHERE "userId" = $1)::int AS orders,
                (SELECT count(*) FROM bean_ledger WHERE "userId" = $1)::int AS ledger,
                (SELECT count(*) FROM notifications WHERE "userId" = $1)::int AS messages`,
        [userId],
      );
      expect(rows[0].orders).toBe(1);
      expect(rows[0].ledger).toBeGreaterThan(0);
      expect(rows[0].messages).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
  }, 60_000);

  it("backs up while a client keeps writing; the snapshot's counts lie within the writes", async () => {
    const writer = await embeddedClient(a.dataDir);
    const count = async () =>
      Number(
        (await writer.query(`SELECT count(*)::int AS n FROM notifications WHERE "senderName" = 'writer'`)).rows[0].n,
      );
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i++) {
        await writer.query(
          `INSERT INTO notifications ("notifyTitle", "notifyText", "senderName") VALUES ($1, 'during the backup', 'writer')`,
          [`w${i}`],
        );
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const before = await count();
    backupFile = path.join(work, "backups", "yuelu.tar");
    const started = Date.now();
    const result = await npmRun("backup", ["--out", backupFile], a.dataDir);
    const seconds = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 300));
    writing = false;
    await writes;
    const after = await count();
    await writer.end();
    expect(result.out).toContain("snapshot taken by the running server");
    expect(result.code, result.out).toBe(0);
    console.log(`backup of a running install: ${seconds.toFixed(1)} s (npm run backup, including tsx start-up)`);

    manifest = await readManifest(backupFile);
    expect(manifest.database.kind).toBe("embedded");
    // The writer kept going through the backup, and the snapshot is one moment inside it.
    expect(after).toBeGreaterThan(before);
    const inSnapshot = manifest.database.rowCounts["public.notifications"] ?? 0;
    expect(inSnapshot).toBeGreaterThanOrEqual(before + 2); // the user's message + the writer's rows before
    expect(inSnapshot).toBeLessThanOrEqual(after + 2);
    expect(manifest.database.rowCounts["public.users"]).toBeGreaterThanOrEqual(1);
    expect(manifest.database.rowCounts["public.transcripts"]).toBe(1);
    expect(manifest.files.length).toBe(1);
    expect(manifest.totals.files).toBe(1);
    expect(manifest.cookieSecret).not.toBeNull();
  }, 120_000);

  it("refuses to restore into a DATA_DIR that is not empty, and changes nothing there", async () => {
    const busy = path.join(work, "busy");
    await mkdir(busy);
    await writeFile(path.join(busy, "keep.txt"), "mine");
    const result = await npmRun("restore", [backupFile], busy);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/is not empty: a restore never overwrites/);
    expect(await readdir(busy)).toEqual(["keep.txt"]);
  }, 60_000);

  it("refuses a backup with one byte changed, and writes nothing", async () => {
    const damaged = path.join(work, "damaged.tar");
    await copyFile(backupFile, damaged);
    const bytes = await readFile(damaged);
    const file = (await listTar(damaged)).find((e) => e.name.startsWith("files/"));
    if (!file) throw new Error("no file entry");
    const at = file.offset + Math.floor(file.size / 2);
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    await writeFile(damaged, bytes);
    const target = path.join(work, "from-damaged");
    const result = await npmRun("restore", [damaged], target);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/is damaged: its SHA-256 differs/);
    expect(existsSync(target)).toBe(false);
    expect((await readdir(work)).filter((n) => n.includes("restoring"))).toEqual([]);
  }, 60_000);

  it("restores into a new folder: every table's rows and every file's checksum as in the manifest", async () => {
    const result = await npmRun("restore", [backupFile], restoredDir());
    expect(result.code, result.out).toBe(0);
    // An independent look at the restored database, before any server touches it.
    const db = await PGlite.create(path.join(restoredDir(), "pgdata"));
    try {
      expect(await countRows((sql) => db.query(sql))).toEqual(manifest.database.rowCounts);
      const { rows } = await db.query<{ storageKey: string }>(`SELECT "storageKey" FROM audio_records`);
      // every file a row of the snapshot names is there
      for (const r of rows) expect(existsSync(path.join(restoredDir(), "files", r.storageKey))).toBe(true);
    } finally {
      await db.close();
    }
    const restored: Record<string, string> = {};
    for await (const f of walk(path.join(restoredDir(), "files"))) {
      restored[path.relative(path.join(restoredDir(), "files"), f)] = await sha256File(f);
    }
    expect(restored).toEqual(Object.fromEntries(manifest.files.map((f) => [f.key, f.sha256])));
  }, 120_000);

  it("starts the restored install, which serves the same user, transcript and audio byte for byte", async () => {
    const get = async (base: string, url: string) => {
      const res = await fetch(`${base}${url}`, { headers: { cookie, lang: "en" } });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const textUrl = `/voice_yuelu/api/v2/audio/text/get_text?fileId=${fileId}`;
    const audioUrl = `/voice_yuelu/api/v3/audio/download?fileId=${fileId}`;
    const textA = await get(a.base, textUrl);
    const audioA = await get(a.base, audioUrl);
    await a.stop(); // one install at a time: the machine's cores are shared
    b = await startInstall(restoredDir(), portB);
    // The same session cookie works: the sessions table and the cookie secret came back.
    const user = JSON.parse((await get(b.base, "/voice_yuelu/api/v1/user/info")).toString());
    expect(user).toMatchObject({ status_code: 1, data: { phoneNumber: "137****0032" } });
    const textB = await get(b.base, textUrl);
    // asrResult travels as a JSON string, as the spec's get_text gives it
    expect(JSON.parse(JSON.parse(textB.toString()).data.asrResult)[0].text).toBe(
      "Backed up, then restored: 一字不差。",
    );
    expect(textB.equals(textA)).toBe(true);
    const audioB = await get(b.base, audioUrl);
    expect(audioB.equals(audioA)).toBe(true);
    expect(audioB.equals(audio)).toBe(true);
  }, 300_000);

  it("backs up a stopped install by opening its folder", async () => {
    await a.stop();
    const offline = path.join(work, "backups", "offline.tar");
    const result = await npmRun("backup", ["--out", offline], a.dataDir);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toContain("no server running");
    const m = await readManifest(offline);
    expect(m.database.rowCounts["public.notifications"]).toBeGreaterThanOrEqual(
      manifest.database.rowCounts["public.notifications"] ?? 0,
    );
    // and never overwrites a backup
    const again = await npmRun("backup", ["--out", offline], a.dataDir);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/already exists/);
  }, 120_000);
});
