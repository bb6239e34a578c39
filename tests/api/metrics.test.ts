import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { addJobSource, loadConfig, QUEUE_NAMES, QUEUE_STATES } from "@yuelu/runtime";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockAlipayGateway } from "../../apps/api/src/modules/payments/mock-alipay/gateway.ts";
import { startMetricsServer } from "../../apps/worker/src/metrics.ts";
import { startWorkers } from "../../apps/worker/src/workers.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { type Family, readMetrics, type Series, seriesOf } from "../helpers/prometheus.ts";

/**
 * GET /metrics (docs/metrics.md): the families dashboards and alerts depend on, their labels and
 * counts after real work (a real transcription of real speech by the worker, a mock payment), read
 * with a real Prometheus text parser; and who may read it (the token rule), on the API and on a
 * worker's own listener.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
/** Real speech (JFK's inaugural, 11 s) shipped inside an npm package. */
const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const TOKEN = "metrics-token-0123456789abcdef";
const YEAR_MS = 365 * 86_400_000;
const silent = { info() {}, warn() {}, error() {} };
const api = (p: string) => `/voice_yuelu${p}`;

let t: TestApp;
let workers: { stop(): Promise<void> } | undefined;
/** what the mock gateway notified (replayed to show a payment is counted once) */
const notifications: Record<string, string>[] = [];
beforeAll(async () => {
  // outside production, with a token: loopback reads freely, anyone else needs the token
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
  const gateway = t.app.payments as MockAlipayGateway;
  gateway.startDelivery(async (params) => {
    notifications.push(params);
    return (await t.http().post(api("/api/v1/pay/notify/alipay")).type("form").send(params)).text;
  });
  workers = await startWorkers({
    db: t.db,
    config: t.config,
    queues: t.queues,
    files: t.files,
    events: t.events,
    log: silent,
  });
}, 120_000);
afterAll(async () => {
  await workers?.stop();
  await t?.close();
});

async function scrape(app: TestApp = t): Promise<Map<string, Family>> {
  const res = await app.http().get("/metrics");
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return readMetrics(res.text);
}

const one = (families: Map<string, Family>, family: string, labels: Record<string, string>): Series | undefined => {
  const found = seriesOf(families, family, labels);
  expect(found.length, `${family} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0];
};
const countOf = (families: Map<string, Family>, family: string, labels: Record<string, string>) =>
  one(families, family, labels)?.count ?? 0;
const sampleValue = (families: Map<string, Family>, family: string, labels: Record<string, string>) =>
  one(families, family, labels)?.value ?? 0;

async function secondsOf(file: string): Promise<number> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
  return Number(stdout.trim());
}

/** A signed-in user with card time and an API key (the /v1 endpoint transcribes an upload and waits for it). */
async function integrator(): Promise<SignedIn & { key: string }> {
  const who = await signIn(t);
  await t.db.timeCard.create({
    data: {
      userId: who.userId,
      seconds: 36_000,
      remaining: 36_000,
      expiresAt: new Date(Date.now() + YEAR_MS),
      source: "purchase",
      refId: `metrics-test-${who.userId}`,
    },
  });
  const made = await t.http().post(api("/api/v1/api_keys/create")).set("Cookie", who.cookie).send({ name: "metrics" });
  expect(made.body.status_code, made.body.status_msg).toBe(1);
  return { ...who, key: made.body.data.key as string };
}

describe("GET /metrics: families, labels and counts", () => {
  it("exposes every family with its type, the default Node families, and queue gauges for every queue and state", async () => {
    const families = await scrape();
    const expected: Record<string, string> = {
      yuelu_http_request_duration_seconds: "HISTOGRAM",
      yuelu_queue_jobs: "GAUGE",
      yuelu_job_duration_seconds: "HISTOGRAM",
      yuelu_transcribed_audio_seconds_total: "COUNTER",
      yuelu_asr_realtime_factor: "HISTOGRAM",
      yuelu_payments_total: "COUNTER",
      process_cpu_user_seconds_total: "COUNTER",
      nodejs_eventloop_lag_seconds: "GAUGE",
      process_resident_memory_bytes: "GAUGE",
      nodejs_heap_size_used_bytes: "GAUGE",
    };
    for (const [name, type] of Object.entries(expected)) expect(families.get(name)?.type, name).toBe(type);
    const gauges = seriesOf(families, "yuelu_queue_jobs");
    expect(gauges).toHaveLength(QUEUE_NAMES.length * QUEUE_STATES.length);
    for (const queue of QUEUE_NAMES) {
      for (const state of QUEUE_STATES) {
        const gauge = one(families, "yuelu_queue_jobs", { queue, state });
        expect(gauge?.labels).toEqual({ queue, state });
        expect(gauge?.value).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("queue gauges are read from the queues at scrape time: a delayed job shows, and is gone once removed", async () => {
    const before = sampleValue(await scrape(), "yuelu_queue_jobs", { queue: "housekeeping", state: "delayed" });
    const job = await t.queues.queue("housekeeping").add("housekeeping", {}, { delay: 3_600_000 });
    expect(sampleValue(await scrape(), "yuelu_queue_jobs", { queue: "housekeeping", state: "delayed" })).toBe(
      before + 1,
    );
    await job.remove();
    expect(sampleValue(await scrape(), "yuelu_queue_jobs", { queue: "housekeeping", state: "delayed" })).toBe(before);
  });

  it("labels requests by route pattern, method and status code, never by the raw URL; counts each one", async () => {
    const before = await scrape();
    const health = { method: "GET", route: "/healthz", status_code: "200" };
    const admin = { method: "GET", route: "/voice_yuelu/admin/users/:userId", status_code: "200" };
    const cashier = { method: "GET", route: "/mock-alipay/pay/:orderNumber" };
    for (let i = 0; i < 3; i++) expect((await t.http().get("/healthz")).status).toBe(200);
    // an id in the path (anonymous: the envelope's 10001 travels with HTTP 200)
    const userId = 987_654_321;
    expect((await t.http().get(api(`/admin/users/${userId}`))).body.status_code).toBe(10001);
    await t.http().get("/mock-alipay/pay/NOSUCHORDER42");
    const unknown = await t.http().get(api("/no/such/call/5550001"));
    expect(unknown.status).toBe(404);

    const res = await t.http().get("/metrics");
    const after = readMetrics(res.text);
    expect(countOf(after, "yuelu_http_request_duration_seconds", health)).toBe(
      countOf(before, "yuelu_http_request_duration_seconds", health) + 3,
    );
    expect(countOf(after, "yuelu_http_request_duration_seconds", admin)).toBe(
      countOf(before, "yuelu_http_request_duration_seconds", admin) + 1,
    );
    expect(seriesOf(after, "yuelu_http_request_duration_seconds", cashier).length).toBeGreaterThanOrEqual(1);
    expect(
      countOf(after, "yuelu_http_request_duration_seconds", { method: "GET", route: "unmatched", status_code: "404" }),
    ).toBeGreaterThanOrEqual(1);
    // no series carries a raw path: ids and unknown paths never become label values
    expect(res.text).not.toContain(String(userId));
    expect(res.text).not.toContain("NOSUCHORDER42");
    expect(res.text).not.toContain("5550001");
    for (const series of seriesOf(after, "yuelu_http_request_duration_seconds")) {
      expect(Object.keys(series.labels).sort()).toEqual(["method", "route", "status_code"]);
      expect(series.count).toBe(series.buckets?.["+Inf"]);
    }
    // the scrape itself is not timed
    expect(seriesOf(after, "yuelu_http_request_duration_seconds", { route: "/metrics" })).toEqual([]);
  });

  it("after a real transcription: job duration, transcribed seconds ≈ the audio's length, the realtime factor", async () => {
    const audioSeconds = await secondsOf(JFK_MP3);
    const before = await scrape();
    const who = await integrator();
    const res = await t
      .http()
      .post("/v1/audio/transcriptions")
      .set("Authorization", `Bearer ${who.key}`)
      .field("model", "whisper-1")
      .field("language", "en")
      .attach("file", JFK_MP3);
    expect(res.status, res.text).toBe(200);
    expect(res.body.text).toMatch(/ask not\W+what your country can do for you/i);

    const after = await scrape();
    const job = { type: "transcription", outcome: "done" };
    expect(countOf(after, "yuelu_job_duration_seconds", job)).toBe(
      countOf(before, "yuelu_job_duration_seconds", job) + 1,
    );
    const timed = one(after, "yuelu_job_duration_seconds", job)!;
    expect(timed.sum).toBeGreaterThan(0);

    const audio = { language: "en", engine: "moonshine" };
    const added =
      sampleValue(after, "yuelu_transcribed_audio_seconds_total", audio) -
      sampleValue(before, "yuelu_transcribed_audio_seconds_total", audio);
    expect(Math.abs(added - audioSeconds)).toBeLessThan(0.1);

    const rtf = { engine: "moonshine" };
    expect(countOf(after, "yuelu_asr_realtime_factor", rtf)).toBe(
      countOf(before, "yuelu_asr_realtime_factor", rtf) + 1,
    );
    const factor =
      (one(after, "yuelu_asr_realtime_factor", rtf)!.sum ?? 0) -
      (one(before, "yuelu_asr_realtime_factor", rtf)?.sum ?? 0);
    // recognition took some time, and less than ten times the audio's length on any machine that passes the other tests
    console.log(
      `transcribed ${added.toFixed(2)} s of ${audioSeconds.toFixed(2)} s audio; moonshine realtime factor ${factor.toFixed(3)}`,
    );
    expect(factor).toBeGreaterThan(0);
    expect(factor).toBeLessThan(10);
    for (const series of seriesOf(after, "yuelu_job_duration_seconds")) {
      expect(Object.keys(series.labels).sort()).toEqual(["outcome", "type"]);
      expect(["done", "skipped", "retry", "failed"]).toContain(series.labels.outcome);
    }
  }, 180_000);

  it("counts payments by provider and status: created, paid once however many notifications, failed", async () => {
    const before = await scrape();
    const who = await signIn(t);
    const order = async () => {
      const res = await t
        .http()
        .post(api("/api/v1/pay/execute_payment"))
        .set("Cookie", who.cookie)
        .send({ goodsId: 1, payAgent: "alipay", source: 0 });
      expect(res.body.status_code, res.body.status_msg).toBe(1);
      return res.body.data.orderNumber as string;
    };
    const paid = await order();
    await t.http().post(`/mock-alipay/api/${paid}/pay`).send({});
    await until(async () => (await t.db.order.findUniqueOrThrow({ where: { orderNumber: paid } })).grantedAt !== null);
    // Alipay resends notifications: the replay is taken ("success") and grants (and counts) nothing more
    const sent = notifications.find((n) => n.out_trade_no === paid);
    expect(sent).toBeDefined();
    expect((await t.http().post(api("/api/v1/pay/notify/alipay")).type("form").send(sent!)).text).toBe("success");
    const failed = await order();
    // the payer cancels: the cashier's next poll asks the provider, which says the trade is closed
    await t.http().post(`/mock-alipay/api/${failed}/fail`).send({});
    const poll = await t
      .http()
      .post(api("/api/v1/pay/check_pay_result"))
      .set("Cookie", who.cookie)
      .send({ goodsId: 1, orderNumber: failed, payAgent: "alipay" });
    expect(poll.body.data.tradeStatus).toBe(3);

    const after = await scrape();
    const delta = (status: string) =>
      sampleValue(after, "yuelu_payments_total", { provider: "mock-alipay", status }) -
      sampleValue(before, "yuelu_payments_total", { provider: "mock-alipay", status });
    expect(delta("created")).toBe(2);
    expect(delta("paid")).toBe(1);
    expect(delta("failed")).toBe(1);
  }, 60_000);
});

describe("npm start: the launcher's API adds its worker child's job families", () => {
  it("sums the child's job and audio families into the scrape; not its queue gauges or process families", async () => {
    // what the child answers over IPC: its registry's JSON (a registry of its own here)
    const child = new Registry();
    const jobs = new Histogram({
      name: "yuelu_job_duration_seconds",
      help: "child",
      labelNames: ["type", "outcome"],
      buckets: [0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200],
      registers: [child],
    });
    jobs.observe({ type: "voice", outcome: "done" }, 4);
    jobs.observe({ type: "voice", outcome: "done" }, 6);
    new Counter({
      name: "yuelu_transcribed_audio_seconds_total",
      help: "child",
      labelNames: ["language", "engine"],
      registers: [child],
    }).inc({ language: "zh", engine: "sherpa" }, 42);
    new Gauge({ name: "yuelu_queue_jobs", help: "child", labelNames: ["queue", "state"], registers: [child] }).set(
      { queue: "transcription", state: "waiting" },
      1000,
    );
    new Gauge({ name: "process_resident_memory_bytes", help: "child", registers: [child] }).set(1e12);

    const before = await scrape();
    const undo = addJobSource(async () => child.getMetricsAsJSON());
    let merged: Map<string, Family>;
    try {
      merged = await scrape();
    } finally {
      undo();
    }
    const voice = { type: "voice", outcome: "done" };
    expect(countOf(merged, "yuelu_job_duration_seconds", voice)).toBe(
      countOf(before, "yuelu_job_duration_seconds", voice) + 2,
    );
    expect(one(merged, "yuelu_job_duration_seconds", voice)?.buckets?.["5"]).toBe(
      (one(before, "yuelu_job_duration_seconds", voice)?.buckets?.["5"] ?? 0) + 1,
    );
    expect(sampleValue(merged, "yuelu_transcribed_audio_seconds_total", { language: "zh", engine: "sherpa" })).toBe(
      sampleValue(before, "yuelu_transcribed_audio_seconds_total", { language: "zh", engine: "sherpa" }) + 42,
    );
    // the queues are read here too (not counted twice); the process families are this process's own
    const waiting = { queue: "transcription", state: "waiting" };
    expect(sampleValue(merged, "yuelu_queue_jobs", waiting)).toBe(sampleValue(before, "yuelu_queue_jobs", waiting));
    expect(sampleValue(merged, "process_resident_memory_bytes", {})).toBeLessThan(1e12);
    expect(merged.get("process_start_time_seconds")?.series[0]?.value).toBeGreaterThan(0);
    // and without the source, the child's figures are gone again
    expect(countOf(await scrape(), "yuelu_job_duration_seconds", voice)).toBe(
      countOf(before, "yuelu_job_duration_seconds", voice),
    );
  });
});

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("who may read /metrics", () => {
  const forwarded = { "X-Forwarded-For": "203.0.113.9" };

  it("development: loopback reads without a token; a client through a proxy needs the token (401 without, wrong one)", async () => {
    expect((await t.http().get("/metrics")).status).toBe(200);
    const stranger = await t.http().get("/metrics").set(forwarded).set("lang", "en");
    expect(stranger.status).toBe(401);
    expect(stranger.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(stranger.body).toMatchObject({ status_code: 401, status_msg: "Unauthorized, please sign in" });
    const wrong = await t.http().get("/metrics").set(forwarded).set("Authorization", `Bearer ${TOKEN}x`);
    expect(wrong.status).toBe(401);
    const right = await t.http().get("/metrics").set(forwarded).set("Authorization", `Bearer ${TOKEN}`);
    expect(right.status).toBe(200);
    expect(readMetrics(right.text).has("yuelu_queue_jobs")).toBe(true);
  });

  it("production without METRICS_TOKEN: 404, the same answer as any unknown path, even from loopback", async () => {
    const prod = await createTestApp({ NODE_ENV: "production", COOKIE_SECRET: "c".repeat(40) });
    try {
      const res = await prod.http().get("/metrics").set("lang", "en");
      const unknown = await prod.http().get("/healthz/nothing-here").set("lang", "en");
      expect(res.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(res.body).toMatchObject({ status_code: 404, status_msg: "Request address error: /metrics" });
      expect(res.body.status_msg.replace("/metrics", "")).toBe(
        unknown.body.status_msg.replace("/healthz/nothing-here", ""),
      );
      const guessed = await prod.http().get("/metrics").set("Authorization", "Bearer anything-at-all-0123456789");
      expect(guessed.status).toBe(404);
    } finally {
      await prod.close();
    }
  }, 60_000);

  it("production with METRICS_TOKEN: 401 without or with a wrong token (loopback included), 200 with it", async () => {
    const prod = await createTestApp({ NODE_ENV: "production", COOKIE_SECRET: "c".repeat(40), METRICS_TOKEN: TOKEN });
    try {
      expect((await prod.http().get("/metrics")).status).toBe(401);
      expect((await prod.http().get("/metrics").set("Authorization", "Bearer nope")).status).toBe(401);
      expect((await prod.http().get("/metrics").set("Authorization", TOKEN)).status).toBe(401);
      const ok = await prod.http().get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
      expect(ok.status).toBe(200);
      expect(readMetrics(ok.text).get("yuelu_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    } finally {
      await prod.close();
    }
  }, 60_000);

  it("a worker's own listener (METRICS_PORT) keeps the same rule", async () => {
    const get = async (port: number, headers: Record<string, string> = {}, url = "/metrics") =>
      fetch(`http://127.0.0.1:${port}${url}`, { headers });
    const dev = await startMetricsServer(loadConfig({ NODE_ENV: "development", HOST: "127.0.0.1" }), 0);
    const prod = await startMetricsServer(
      loadConfig({ NODE_ENV: "production", HOST: "127.0.0.1", COOKIE_SECRET: "c".repeat(40), METRICS_TOKEN: TOKEN }),
      0,
    );
    const prodHidden = await startMetricsServer(
      loadConfig({ NODE_ENV: "production", HOST: "127.0.0.1", COOKIE_SECRET: "c".repeat(40) }),
      0,
    );
    try {
      const local = await get(dev.port);
      expect(local.status).toBe(200);
      expect(readMetrics(await local.text()).get("nodejs_eventloop_lag_seconds")?.type).toBe("GAUGE");
      // development, not on this machine, no token configured: as production, hidden
      expect((await get(dev.port, forwarded)).status).toBe(404);
      expect((await get(dev.port, {}, "/other")).status).toBe(404);
      expect((await get(prodHidden.port)).status).toBe(404);
      expect((await get(prod.port)).status).toBe(401);
      expect((await get(prod.port, { Authorization: "Bearer wrong-token" })).status).toBe(401);
      const ok = await get(prod.port, { Authorization: `Bearer ${TOKEN}` });
      expect(ok.status).toBe(200);
      expect(readMetrics(await ok.text()).has("yuelu_job_duration_seconds")).toBe(true);
    } finally {
      await Promise.all([dev.close(), prod.close(), prodHidden.close()]);
    }
  });
});
