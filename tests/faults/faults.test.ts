import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMockAlipayKeys } from "../../apps/api/src/modules/payments/mock-alipay/keys.ts";
import { tradeSuccessNotification } from "../helpers/alipay-notification.ts";
import { type ApiClient, signInOverHttp } from "../helpers/client.ts";
import { type RunningCluster, startCluster } from "../helpers/cluster.ts";
import { startS3, type TestS3 } from "../helpers/s3.ts";
import { wordErrorRate } from "../helpers/wer.ts";
import { type OwnService, postgresBin, startOwnPostgres, startOwnRedis } from "./services.ts";

/**
 * Issue 19's faults: the product as several nodes (scripts/cluster.mjs: 2 APIs, 2 workers) on a
 * PostgreSQL, a Redis and an S3 server of this suite's own, which it stops and restarts under load.
 * Real speech, real workers; nothing is faked but the payment provider's notifications, which the
 * test signs with the mock gateway's keys as the provider would.
 */
const runFile = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const JFK_TEXT =
  "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any;

const bin = await postgresBin();
if (!bin) console.warn("\n⚠️  tests/faults NOT RUN: PostgreSQL's programs (initdb, pg_ctl) are not installed here\n");

let postgres: OwnService;
let redis: OwnService;
let s3: TestS3;
let dir: string;
let cluster: RunningCluster;
let nodeA: ApiClient;
let nodeB: ApiClient;
let longClip: string;
/** the environment every node of this suite's install runs with */
let nodeEnv: NodeJS.ProcessEnv;
/** workers still alive: the tests kill some and start others */
const liveWorkers = new Set<number>();
const extraWorkers: ChildProcess[] = [];
const keys = generateMockAlipayKeys();

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < timeoutMs) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await sleep(300);
  }
  throw new Error(`timed out waiting for ${what} (last error: ${String(last)}):\n${cluster?.output().slice(-4000)}`);
}

async function sql<T = Json>(query: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function upload(client: ApiClient, file: string, name: string): Promise<number> {
  const form = new FormData();
  form.append("file", new Blob([await readFile(file)]), name);
  return (await client.api<Json>("POST", "/api/v1/audio/upload", form)).fileId;
}

async function transcribe(client: ApiClient, fileIds: number[]) {
  await client.api("POST", "/api/v2/dictation/audio/dictation_batch", {
    fileIds: fileIds.join(","),
    dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
  });
}

async function progressOf(client: ApiClient, fileIds: number[]): Promise<Json[]> {
  return client.api<Json[]>("GET", `/api/v1/dictation/progress/get_progress?fileIds=${fileIds.join(",")}`);
}

async function allDone(client: ApiClient, fileIds: number[]) {
  return until(`transcripts of ${fileIds.join(",")}`, async () => {
    const progress = await progressOf(client, fileIds);
    const failed = progress.find((p) => p.fileStatus === -1);
    if (failed) throw new Error(`transcription ${failed.fileId} failed: ${failed.errorMsg}`);
    return progress.every((p) => p.fileStatus === 2) ? progress : undefined;
  });
}

/** An order of `goodsId` made on node A, and the provider's RSA2-signed TRADE_SUCCESS notification for it. */
async function signedNotification(goodsId: number) {
  const order = await nodeA.api<Json>("POST", "/api/v1/pay/execute_payment", { goodsId, payAgent: "alipay" });
  const [row] = await sql(
    `SELECT o."amountFen", g."memberDays" FROM orders o JOIN pay_goods g USING ("goodsId") WHERE o."orderNumber" = $1`,
    [order.orderNumber],
  );
  const body = tradeSuccessNotification(keys, {
    orderNumber: order.orderNumber,
    totalAmount: (row.amountFen / 100).toFixed(2),
    subject: "会员",
  });
  return { orderNumber: order.orderNumber as string, memberDays: row.memberDays as number, body };
}

/** Delivers a notification to one API node; the node's plain-text answer ("success" acknowledges it). */
async function notify(base: string, body: string): Promise<string> {
  const res = await fetch(`${base}/voice_yuelu/api/v1/pay/notify/alipay`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return res.text();
}

/** The order is paid, and the membership grew by the plan's days once (not twice or more). */
async function expectGrantedOnce(orderNumber: string, before: Json, memberDays: number) {
  const [paid] = await sql(`SELECT "tradeStatus", "grantedAt", "paidAt" FROM orders WHERE "orderNumber" = $1`, [
    orderNumber,
  ]);
  expect(paid.tradeStatus).toBe(1);
  expect(paid.grantedAt).not.toBeNull();
  const after = await nodeB.api<Json>("GET", "/api/v1/user/info");
  const start = Math.max(before.memberEffectiveTime, Math.floor(new Date(paid.grantedAt).getTime() / 1000));
  expect(Math.round((after.memberEffectiveTime - start) / 86_400)).toBe(memberDays);
}

/** Each file was transcribed and charged exactly once. */
async function expectExactlyOnce(fileIds: number[]) {
  const tasks = await sql<{ fileId: number; n: number; charged: number; refunded: number }>(
    `SELECT "fileId", count(*)::int AS n, sum("secondsCharged")::int AS charged,
            count("refundedAt")::int AS refunded
       FROM transcription_tasks WHERE "fileId" = ANY($1) GROUP BY "fileId"`,
    [fileIds],
  );
  expect(tasks.map((t) => t.n)).toEqual(fileIds.map(() => 1));
  expect(tasks.map((t) => t.refunded)).toEqual(fileIds.map(() => 0));
  const transcripts = await sql(`SELECT "fileId" FROM transcripts WHERE "fileId" = ANY($1)`, [fileIds]);
  expect(transcripts).toHaveLength(fileIds.length);
  // charged once: the day's quota holds exactly what the tasks were charged
  return tasks.reduce((sum, t) => sum + t.charged, 0);
}

/** CPU ticks (user + system, its finished children's too: espeak-ng, ffmpeg) of a process so far, from /proc. */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
}

/** The live worker burning the most CPU: the one doing the job under way. */
async function busiestWorker(): Promise<number> {
  const pids = [...liveWorkers];
  const first = await Promise.all(pids.map(cpuTicks));
  await sleep(700);
  const second = await Promise.all(pids.map(cpuTicks));
  const used = pids.map((_, i) => second[i]! - first[i]!);
  return pids[used.indexOf(Math.max(...used))]!;
}

function killWorker(pid: number) {
  process.kill(pid, "SIGKILL");
  liveWorkers.delete(pid);
}

/** One more worker process of the same install (its own DATA_DIR), as an operator would start on a new machine. */
async function startExtraWorker(): Promise<void> {
  const dataDir = path.join(dir, `extra-worker-${extraWorkers.length + 1}`);
  await mkdir(dataDir, { recursive: true });
  const child = spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], {
    cwd: root,
    env: { ...nodeEnv, DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  extraWorkers.push(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the extra worker did not start")), 120_000);
    child.on("message", (m: { type?: string }) => {
      if (m?.type !== "worker-ready") return;
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => reject(new Error(`the extra worker exited ${code}`)));
  });
  liveWorkers.add(child.pid!);
}

describe.runIf(bin)("faults: PostgreSQL, Redis and workers stopped under load", () => {
  beforeAll(async () => {
    [postgres, redis, s3] = await Promise.all([startOwnPostgres(bin!), startOwnRedis(), startS3("faults")]);
    dir = await mkdtemp(path.join(tmpdir(), "yuelu-faults-"));
    // ~3.7 minutes of real speech (JFK ×20): long enough to be cut in the middle of its transcription
    longClip = path.join(dir, "long.mp3");
    await writeFile(path.join(dir, "list.txt"), Array.from({ length: 20 }, () => `file '${JFK_MP3}'`).join("\n"));
    await runFile("ffmpeg", [
      "-v",
      "error",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      path.join(dir, "list.txt"),
      "-c",
      "copy",
      longClip,
    ]);
    const keysFile = path.join(dir, "mock-keys.json");
    await writeFile(keysFile, JSON.stringify(keys));
    nodeEnv = {
      ...process.env,
      ...s3.env,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
      WEB_DIST: path.join(dir, "no-web"),
      ASR_AUTO_FETCH: "false",
      RATE_LIMIT_PER_MINUTE: "0",
      MOCK_ALIPAY_KEYS_FILE: keysFile,
      COOKIE_SECRET: randomBytes(32).toString("hex"),
    };
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      port: 23_000 + (process.pid % 500) * 4,
      dataDir: dir,
      timeoutMs: 240_000,
      env: nodeEnv,
    });
    for (const worker of cluster.workers) liveWorkers.add(worker.pid);
    nodeA = await signInOverHttp(cluster.apis[0]!.url, "13600000951");
    nodeB = nodeA.at(cluster.apis[1]!.url);
  }, 300_000);

  afterAll(async () => {
    for (const worker of extraWorkers) if (worker.exitCode === null) worker.kill("SIGKILL");
    await cluster?.stop();
    await Promise.all([postgres?.close(), redis?.close(), s3?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the same payment notification 100 times across two API nodes grants once", async () => {
    const before = await nodeA.api<Json>("GET", "/api/v1/user/info");
    const { orderNumber, memberDays, body } = await signedNotification(9);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => notify(cluster.apis[i % 2]!.url, body)));
    expect(answers.filter((a) => a === "success")).toHaveLength(100);
    await expectGrantedOnce(orderNumber, before, memberDays);
  }, 60_000);

  it("PostgreSQL restarted while a payment notification is delivered: refused while away, paid once after", async () => {
    const before = await nodeA.api<Json>("GET", "/api/v1/user/info");
    const { orderNumber, memberDays, body } = await signedNotification(9);
    await postgres.stop();
    let whileAway: string[];
    try {
      // The provider's first deliveries meet no database: none may answer "success" (it would stop retrying).
      whileAway = await Promise.all(cluster.apis.map((api) => notify(api.url, body).catch((e) => String(e))));
    } finally {
      await postgres.start();
    }
    expect(whileAway.filter((a) => a === "success")).toEqual([]);
    // The provider retries, as Alipay does, until one delivery is acknowledged; then a few late copies.
    const delivered = await until("a notification acknowledged", async () =>
      (await notify(cluster.apis[1]!.url, body)) === "success" ? true : undefined,
    );
    expect(delivered).toBe(true);
    const late = await Promise.all(Array.from({ length: 10 }, (_, i) => notify(cluster.apis[i % 2]!.url, body)));
    expect(late.filter((a) => a === "success")).toHaveLength(10);
    await expectGrantedOnce(orderNumber, before, memberDays);
  }, 120_000);

  it("Redis restarted with jobs queued and running: every job completes exactly once", async () => {
    const ids = [await upload(nodeA, longClip, "long.mp3")];
    for (let i = 0; i < 3; i++) ids.push(await upload(nodeB, JFK_MP3, `jfk-${i}.mp3`));
    await transcribe(nodeA, ids);
    await until("a transcription under way", async () =>
      (await progressOf(nodeB, ids)).some((p) => p.fileStatus === 1 && p.progress > 5) ? true : undefined,
    );
    await redis.stop();
    await sleep(2000);
    await redis.start();
    await allDone(nodeB, ids);
    await expectExactlyOnce(ids);
    const text = await nodeA.api<Json>("GET", `/api/v2/audio/text/get_text?fileId=${ids[1]}`);
    const words = (JSON.parse(text.asrResult) as { text: string }[]).map((s) => s.text).join(" ");
    expect(wordErrorRate(JFK_TEXT, words).wer, words).toBeLessThanOrEqual(0.15);
  }, 240_000);

  it("PostgreSQL restarted during a transcription: 503 with the envelope while it is away, then the job finishes", async () => {
    const id = await upload(nodeA, longClip, "long-2.mp3");
    await transcribe(nodeB, [id]);
    await until("the transcription under way", async () =>
      (await progressOf(nodeA, [id]))[0]?.progress > 5 ? true : undefined,
    );
    await postgres.stop();
    try {
      const res = await fetch(`${cluster.apis[1]!.url}/voice_yuelu/api/v3/audio/all_list?page=1&pageSize=10`, {
        headers: { cookie: nodeA.cookie },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toMatchObject({ status_code: 99999, status_msg: "服务暂时不可用，请稍后再试" });
    } finally {
      await postgres.start();
    }
    // the API recovers by itself, and the job finishes
    await until("the API back", async () =>
      (await nodeB.api<Json>("GET", "/api/v1/user/info")).userId ? true : undefined,
    );
    await allDone(nodeA, [id]);
    await expectExactlyOnce([id]);
  }, 240_000);

  it("a worker killed (SIGKILL) mid-transcription: another worker finishes it, charged once", async () => {
    const id = await upload(nodeB, longClip, "long-3.mp3");
    const used = async () =>
      (
        await sql(`SELECT coalesce(sum("secondsUsed"), 0)::int AS s FROM quota_days WHERE "userId" = $1`, [
          nodeA.userId,
        ])
      )[0].s as number;
    const before = await used();
    await transcribe(nodeA, [id]);
    await until("the transcription under way", async () =>
      (await progressOf(nodeB, [id]))[0]?.progress > 5 ? true : undefined,
    );
    // The worker transcribing is the one burning CPU: kill it; the other must take the job over.
    killWorker(await busiestWorker());
    await allDone(nodeB, [id]);
    const charged = await expectExactlyOnce([id]);
    expect((await used()) - before).toBe(charged);
  }, 240_000);

  it("a worker killed (SIGKILL) mid-synthesis: another worker finishes it, characters charged once", async () => {
    // ~4 800 characters of Chinese: long enough to be cut in the middle of its synthesis
    const text = Array.from({ length: 160 }, (_, i) => `第${i + 1}段，今天的会议讨论了产品计划。`).join("");
    const charsUsed = async () =>
      (
        await sql(`SELECT coalesce(sum("charsUsed"), 0)::int AS c FROM tts_quota_days WHERE "userId" = $1`, [
          nodeA.userId,
        ])
      )[0].c as number;
    // The previous test killed a worker: bring the install back to two, then kill the one synthesising.
    if (liveWorkers.size < 2) await startExtraWorker();
    const before = await charsUsed();
    const { taskId } = await nodeA.api<Json>("POST", "/tts/start_tts", { text, format: "mp3" });
    const progress = async () => (await nodeB.api<Json[]>("GET", `/tts/get_progress?taskIds=${taskId}`))[0];
    await until("the synthesis under way", async () => {
      const p = await progress();
      return p.status === 1 && p.progress > 5 ? true : undefined;
    });
    killWorker(await busiestWorker());
    const done = await until(
      "the synthesis finished by the other worker",
      async () => {
        const p = await progress();
        if (p.status === -1) throw new Error(`synthesis failed: ${p.errorMsg}`);
        return p.status === 2 ? p : undefined;
      },
      200_000,
    );
    expect(done.status).toBe(2);
    const [task] = await sql(
      `SELECT chars, "charsCharged", "refundedAt", attempts, "outputKey" FROM tts_tasks WHERE id = $1`,
      [taskId],
    );
    expect(task.attempts).toBeGreaterThanOrEqual(2);
    expect(task.refundedAt).toBeNull();
    expect(task.charsCharged).toBe(task.chars);
    expect((await charsUsed()) - before).toBe(task.chars);
    const audio = await fetch(`${cluster.apis[1]!.url}/voice_yuelu/tts/download?taskId=${taskId}`, {
      headers: { cookie: nodeA.cookie },
    });
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  }, 300_000);
});
