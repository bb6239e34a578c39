import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { StatusCode, TradeStatus } from "@yuelu/contracts";
import { businessDay } from "@yuelu/domain/time";
import { s3FileStore } from "@yuelu/runtime/s3-file-store";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ApiClient, EnvelopeError, signInOverHttp } from "../helpers/client.ts";
import { type RunningCluster, startCluster } from "../helpers/cluster.ts";
import { adminQuery, withDatabase } from "../helpers/database.ts";
import { startS3, type TestS3 } from "../helpers/s3.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/**
 * Issue 19: Yuelu as several machines run it — `scripts/cluster.mjs` starts 2 API and 2 worker
 * processes that share only PostgreSQL, Redis and an S3-compatible store (s3rver, started here),
 * each with its own DATA_DIR and port, behind its round-robin front. Real speech (whisper.cpp's JFK
 * sample), real workers, real payments through the mock gateway.
 */
const external = inject("databaseMode") === "external" && Boolean(process.env.REDIS_URL);
if (!external) {
  console.warn(
    "\n⚠️  tests/smoke/cluster.test.ts NOT RUN: several nodes need a real PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)\n",
  );
}

const root = path.resolve(import.meta.dirname, "../..");
const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const JFK_TEXT =
  "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.";
const port = 21_000 + (process.pid % 500) * 4;
/** The per-user flood guard, shared by both nodes through Redis. */
const RATE_LIMIT = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any;

let s3: TestS3;
let dir: string;
let dropDatabase = async () => {};
let databaseUrl: string;
let cluster: RunningCluster;
let front: ApiClient;
let nodeA: ApiClient;
let nodeB: ApiClient;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(300);
  }
  throw new Error(`timed out waiting for ${what}:\n${cluster?.output().slice(-4000)}`);
}

describe.runIf(external)("two API nodes and two workers sharing PostgreSQL, Redis and S3", () => {
  beforeAll(async () => {
    s3 = await startS3("cluster");
    dir = await mkdtemp(path.join(tmpdir(), "yuelu-cluster-"));
    const serverUrl = inject("serverUrl");
    const name = `yuelu_cluster_${randomBytes(5).toString("hex")}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${inject("templateDatabase")}"`);
    dropDatabase = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    databaseUrl = withDatabase(serverUrl, name);
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      port,
      dataDir: dir,
      env: {
        ...process.env,
        ...s3.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: process.env.REDIS_URL,
        NODE_ENV: "development",
        LOG_LEVEL: "warn",
        WEB_DIST: path.join(dir, "no-web"),
        ASR_AUTO_FETCH: "false",
        RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
        COOKIE_SECRET: randomBytes(32).toString("hex"),
      },
    });
    // Signed in on node A directly: the console SMS provider hands the code only to a caller on the
    // node's own machine, never through a proxy.
    nodeA = await signInOverHttp(cluster.apis[0]!.url, "13600000901");
    nodeB = nodeA.at(cluster.apis[1]!.url);
    front = nodeA.at(cluster.front);
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await dropDatabase().catch(() => {});
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("a session made on node A is valid on every node and through the front", async () => {
    for (const node of [nodeA, nodeB, front]) {
      const info = await node.api<Json>("GET", "/api/v1/user/info");
      expect(info.userId).toBe(front.userId);
    }
  });

  it("an upload through node A is transcribed by a worker and followed on node B; the file is only in S3", async () => {
    const form = new FormData();
    form.append("file", new Blob([await readFile(JFK_MP3)]), "jfk.mp3");
    const { fileId } = await nodeA.api<Json>("POST", "/api/v1/audio/upload", form);
    await nodeB.api("POST", "/api/v2/dictation/audio/dictation_batch", {
      fileIds: String(fileId),
      dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
    });
    await until(`the transcript of ${fileId}, polled on node B`, async () => {
      const [p] = await nodeB.api<Json[]>("GET", `/api/v1/dictation/progress/get_progress?fileIds=${fileId}`);
      if (p.fileStatus === -1) throw new Error(`transcription failed: ${p.errorMsg}`);
      return p.fileStatus === 2 ? p : undefined;
    });
    const text = await nodeA.api<Json>("GET", `/api/v2/audio/text/get_text?fileId=${fileId}`);
    const words = (JSON.parse(text.asrResult) as { text: string }[]).map((s) => s.text).join(" ");
    expect(wordErrorRate(JFK_TEXT, words).wer, words).toBeLessThanOrEqual(0.15);

    // The bucket holds the upload; no node kept a copy on its own disk (only their databases' secrets).
    const store = s3FileStore({ ...s3.env, S3_REGION: "us-east-1", S3_BUCKET: s3.bucket, S3_FORCE_PATH_STYLE: true });
    const keys: string[] = [];
    for await (const item of store.list(`media/${front.userId}/`)) keys.push(item.key);
    expect(keys).toHaveLength(1);
    for (const node of await readdir(dir)) {
      const inside = await readdir(path.join(dir, node)).catch(() => []);
      expect(inside.filter((f) => f === "files")).toEqual([]);
      const tmp = await readdir(path.join(dir, node, "tmp")).catch(() => []);
      expect(tmp).toEqual([]);
    }

    // Seeking in the player: node B serves a byte range of the object node A stored.
    const original = await readFile(JFK_MP3);
    const res = await fetch(`${cluster.apis[1]!.url}/voice_yuelu/api/v3/audio/download?fileId=${fileId}&inline=1`, {
      headers: { cookie: front.cookie, range: "bytes=1000-1999" },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 1000-1999/${original.length}`);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(original.subarray(1000, 2000));
  }, 180_000);

  it("speech made through node B plays from node A", async () => {
    const task = await nodeB.api<Json>("POST", "/tts/start_tts", { text: "你好，欢迎使用悦录。", format: "mp3" });
    await until(`speech task ${task.taskId}`, async () => {
      const [p] = await nodeA.api<Json[]>("GET", `/tts/get_progress?taskIds=${task.taskId}`);
      if (p.status === -1) throw new Error(`synthesis failed: ${p.errorMsg}`);
      return p.status === 2 ? p : undefined;
    });
    const res = await fetch(`${cluster.apis[0]!.url}/voice_yuelu/tts/download?taskId=${task.taskId}`, {
      headers: { cookie: front.cookie },
    });
    expect(res.status).toBe(200);
    const mp3 = Buffer.from(await res.arrayBuffer());
    expect(mp3.length).toBeGreaterThan(2000);
  }, 120_000);

  it("a payment on node A unlocks the cashier's poll on node B", async () => {
    const order = await nodeA.api<Json>("POST", "/api/v1/pay/execute_payment", { goodsId: 8, payAgent: "alipay" });
    const poll = () =>
      nodeB.api<Json>("POST", "/api/v1/pay/check_pay_result", {
        goodsId: 8,
        orderNumber: order.orderNumber,
        payAgent: "alipay",
      });
    expect((await poll()).tradeStatus).not.toBe(TradeStatus.Paid);
    const paid = await fetch(`${cluster.apis[0]!.url}/mock-alipay/api/${order.orderNumber}/pay`, {
      method: "POST",
      headers: { cookie: front.cookie, "content-type": "application/json" },
      body: "{}",
    });
    expect(paid.status).toBe(200);
    await until("the paid order, seen on node B", async () =>
      (await poll()).tradeStatus === TradeStatus.Paid ? true : undefined,
    );
  }, 60_000);

  it("the per-user flood guard counts a user's requests on both nodes together", async () => {
    const hammer = await signInOverHttp(cluster.apis[0]!.url, "13600000902");
    const burst = (node: ApiClient, n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          node.api("GET", "/api/v1/user/info").then(
            () => "ok",
            (error: unknown) => (error instanceof EnvelopeError ? error.statusCode : "failed"),
          ),
        ),
      );
    // Each node alone sees fewer requests than the limit; together they are far over it.
    const onA = await burst(hammer, 200);
    expect(onA.filter((a) => a === "ok")).toHaveLength(200);
    await sleep(600); // past a flush of node A's counts to Redis
    // Node B learns the shared total at its own flush (shared-rate-store.ts: "give or take one flush interval
    // of requests"): one request there and a flush interval later it knows A's 200, so the burst that follows
    // is judged against the sum, however fast a loaded machine serves the burst.
    const nodeBHammer = hammer.at(cluster.apis[1]!.url);
    await nodeBHammer.api("GET", "/api/v1/user/info");
    await sleep(600);
    const onB = await burst(nodeBHammer, 199);
    const refused = onB.filter((a) => a === StatusCode.TooManyRequests).length;
    expect(refused).toBeGreaterThanOrEqual(200 + 200 - RATE_LIMIT - 20);
    expect(onB.filter((a) => a !== "ok" && a !== StatusCode.TooManyRequests)).toEqual([]);
    // Another user behind the same address is not touched.
    expect((await nodeB.api<Json>("GET", "/api/v1/user/info")).userId).toBe(front.userId);
  }, 60_000);

  it("wrong passwords are counted across nodes: 10 are checked, then the address is refused on both", async () => {
    const phone = "13600000903";
    const post = (base: string, path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Json>);
    const a = cluster.apis[0]!.url;
    const b = cluster.apis[1]!.url;
    const sent = await post(a, "/account/api/sms/send", { phone });
    const made = await post(a, "/account/api/login", { phone, code: sent.data.devCode, password: "right-password-1" });
    expect(made.status_code).toBe(1);
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      answers.push(
        (await post(i % 2 ? b : a, "/account/api/login", { phone, password: "wrong-password" })).status_code,
      );
    }
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(StatusCode.LoginFailed));
    expect(answers.slice(10)).toEqual([StatusCode.TooManyRequests, StatusCode.TooManyRequests]);
  }, 60_000);

  it("a daily quota with room for one clip: two dictations at once on two nodes, one is accepted", async () => {
    const user = await signInOverHttp(cluster.apis[0]!.url, "13600000904");
    const upload = async (node: ApiClient, name: string) => {
      const form = new FormData();
      form.append("file", new Blob([await readFile(JFK_MP3)]), name);
      return (await node.api<Json>("POST", "/api/v1/audio/upload", form)).fileId as number;
    };
    const ids = [await upload(user, "one.mp3"), await upload(user.at(cluster.apis[1]!.url), "two.mp3")];
    const storage = await user.api<Json>("GET", "/api/v1/user/storage_info?source=0");
    // Today's cap leaves 15 s: one 11-second clip fits, two do not.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO quota_days ("userId", day, "secondsUsed") VALUES ($1, $2, $3)
         ON CONFLICT ("userId", day) DO UPDATE SET "secondsUsed" = EXCLUDED."secondsUsed"`,
        [user.userId, businessDay(new Date(), "Asia/Shanghai"), storage.timeLimitToday - 15],
      );
    } finally {
      await client.end();
    }
    const answers = await Promise.all(
      ids.map((fileId, i) =>
        user
          .at(cluster.apis[i]!.url)
          .api("POST", "/api/v2/dictation/audio/dictation", {
            fileId,
            dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
          })
          .then(
            () => "ok",
            (error: unknown) => (error instanceof EnvelopeError ? error.statusCode : String(error)),
          ),
      ),
    );
    expect(answers.sort()).toEqual([StatusCode.DailyQuotaExceeded, "ok"].sort());
    const after = await user.at(cluster.apis[1]!.url).api<Json>("GET", "/api/v1/user/storage_info?source=0");
    expect(after.timeUsedToday).toBeLessThanOrEqual(after.timeLimitToday);
    expect(after.timeUsedToday).toBe(storage.timeLimitToday - 15 + 11);
  }, 60_000);

  it("with one API node killed, the front keeps answering from the other", async () => {
    process.kill(cluster.apis[0]!.pid, "SIGKILL");
    await sleep(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => front.api<Json>("GET", "/api/v1/user/info").then(() => "ok")),
    );
    expect(answers.filter((a) => a === "ok")).toHaveLength(20);
  }, 60_000);
});
