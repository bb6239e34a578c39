import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { LIVE_PATH, LiveCloseCode, StatusCode } from "@yuelu/contracts";
import { businessDay, LIVE_BLOCK_SECONDS } from "@yuelu/domain";
import { loadLiveConfig, startHeartbeat } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LiveCaptionClient, type LiveCaptionState } from "../../apps/web/src/features/records/live/live-client.ts";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { type LiveCaptions, startLiveCaptions } from "../../apps/worker/src/live/index.ts";
import { LIVE_PACE_SLACK_SECONDS } from "../../apps/worker/src/live/metering.ts";
import { createTestApp, type SignedIn, signIn, TEST_COOKIE_SECRET, type TestApp } from "../helpers/app.ts";
import { seedCards } from "../helpers/factories.ts";
import { Client, FRAME, JFK, RATE } from "../helpers/live.ts";

/**
 * Live captions are metered transcription (docs/live.md "Metering"), replaying issue 40's hostile
 * client: a burst of speech far faster than real time, a user without time left, dropped sockets
 * piling up, and parallel starts through two API nodes. Real PostgreSQL, Redis and Moonshine.
 */

/** small, so the burst shows the pacing within seconds */
const CATCH_UP = 5;
const MAX_PER_USER = 2;
const MAX_SESSIONS = 6;

let speech: Int16Array;
let live: LiveCaptions;
let t: TestApp;
/** a second API node on the same database and Redis */
let t2: TestApp;
let stopHeartbeat: () => Promise<void>;
const workerId = randomUUID();
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const wsOf = (app: TestApp) => `ws://127.0.0.1:${(app.app.server.address() as AddressInfo).port}${LIVE_PATH}`;

beforeAll(async () => {
  const jfk = Int16Array.from((await decodeToPcm(JFK)).samples as Int16Array);
  // 44 s of speech: the sample four times
  speech = new Int16Array(jfk.length * 4);
  for (let i = 0; i < 4; i++) speech.set(jfk, i * jfk.length);
  t = await createTestApp();
  t2 = await createTestApp({}, { shareDatabaseWith: t });
  const started = await startLiveCaptions({
    workerId,
    log: quiet,
    domain: t.domain,
    cookieSecret: TEST_COOKIE_SECRET,
    moonshine: new MoonshineEngine(),
    touchEveryMs: 500,
    live: loadLiveConfig({
      LIVE_PORT: "0",
      LIVE_MAX_SESSIONS: String(MAX_SESSIONS),
      LIVE_MAX_PER_USER: String(MAX_PER_USER),
      LIVE_CATCH_UP_SECONDS: String(CATCH_UP),
    }),
  });
  if (!started) throw new Error("live captions did not start");
  live = started;
  const heartbeat = startHeartbeat(t.db, workerId, () => live.reports());
  await heartbeat.beat();
  stopHeartbeat = heartbeat.stop;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  await t2.app.listen({ port: 0, host: "127.0.0.1" });
}, 120_000);

afterAll(async () => {
  await stopHeartbeat?.();
  await live?.close();
  await t2?.close();
  await t?.close();
});

/** A signed-in user whose only transcription time is one card of `seconds`. */
async function userWithTime(seconds: number): Promise<SignedIn> {
  const user = await signIn(t);
  await t.db.timeCard.deleteMany({ where: { userId: user.userId } });
  if (seconds > 0) await seedCards(t.db, user.userId, [{ seconds }]);
  return user;
}

const today = () => businessDay(new Date(), t.config.BUSINESS_TZ);

async function charged(userId: number) {
  const cards = await t.db.timeCard.aggregate({ where: { userId }, _sum: { seconds: true, remaining: true } });
  const day = await t.db.quotaDay.findUnique({ where: { userId_day: { userId, day: today() } } });
  return { cards: (cards._sum.seconds ?? 0) - (cards._sum.remaining ?? 0), today: day?.secondsUsed ?? 0 };
}

async function start(user: SignedIn, app = t): Promise<Client> {
  const c = await Client.connect(wsOf(app), { cookie: user.cookie, lang: "en" });
  c.send({ type: "start", language: "en" });
  return c;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(done: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(50);
  }
}

/** The user's sessions that hold a place (not ended), oldest first. */
const held = (userId: number) =>
  t.db.liveSession.findMany({ where: { userId, endedAt: null }, orderBy: { startedAt: "asc" } });

describe("pacing and charging", () => {
  it("a 44 s burst is decoded no faster than real time plus the catch-up, paid before it is decoded, charged as decoded", {
    timeout: 120_000,
  }, async () => {
    const user = await userWithTime(3600);
    const c = await Client.connect(wsOf(t), { cookie: user.cookie, lang: "en" });
    const t0 = performance.now();
    c.send({ type: "start", language: "en" });
    const ready = await c.next("ready");
    const session = live.hub.session(ready.sessionId)!;
    // the hostile client: all of it at once, then stop
    await c.stream(speech, 0, speech.length, Number.POSITIVE_INFINITY);
    c.send({ type: "stop" });

    const bound = (wallSeconds: number) => (wallSeconds + CATCH_UP + LIVE_PACE_SLACK_SECONDS) * RATE;
    let checks = 0;
    while (!c.messages.some((m) => m.type === "closed") && c.socket.readyState === c.socket.OPEN) {
      const fedBefore = session.fed;
      const row = await t.db.liveSession.findUniqueOrThrow({ where: { id: ready.sessionId } });
      const fedAfter = session.fed;
      const wall = (performance.now() - t0) / 1000;
      // never decoded early, never decoded unpaid, never paid more than a block ahead
      expect(fedAfter).toBeLessThanOrEqual(bound(wall));
      expect(fedBefore).toBeLessThanOrEqual(row.secondsCharged * RATE);
      expect(row.secondsCharged).toBeLessThanOrEqual(Math.ceil(fedAfter / RATE) + LIVE_BLOCK_SECONDS);
      // the socket is not even read past the limit (plus the frame that crossed it)
      const acked = c.messages.filter((m) => m.type === "ack").at(-1);
      if (acked?.type === "ack") expect(acked.received).toBeLessThanOrEqual(bound(wall) + 2 * RATE + FRAME);
      checks++;
      await sleep(250);
    }
    const closed = await c.next("closed", 60_000);
    const took = (performance.now() - t0) / 1000;
    expect(closed.received).toBe(speech.length);
    expect((await c.closed).code).toBe(LiveCloseCode.Done);
    // what was recognised came no sooner than the audio's time allows
    c.messages.forEach((m, i) => {
      if (m.type === "final")
        expect(m.endMs).toBeLessThanOrEqual(c.at[i]! + (CATCH_UP + LIVE_PACE_SLACK_SECONDS) * 1000);
    });
    expect(c.finals().toLowerCase()).toMatch(/your country/);
    console.log(`burst of ${speech.length / RATE} s: decoded in ${took.toFixed(1)} s (${checks} checks)`);
    expect(took).toBeGreaterThanOrEqual(speech.length / RATE - CATCH_UP - LIVE_PACE_SLACK_SECONDS);

    // charged what was decoded, in whole seconds, to the day's quota and the cards alike
    await live.hub.settled();
    const row = await t.db.liveSession.findUniqueOrThrow({ where: { id: ready.sessionId } });
    const decoded = Math.ceil(speech.length / RATE);
    expect(row).toMatchObject({ secondsCharged: decoded, endReason: "done", userId: user.userId });
    expect(await charged(user.userId)).toEqual({ cards: decoded, today: decoded });
  });

  it("refuses a start without time left: 50002 when the day's cap is used up, 20001 without card time", async () => {
    const capped = await userWithTime(3600);
    await t.db.quotaDay.create({ data: { userId: capped.userId, day: today(), secondsUsed: 10_000_000 } });
    const c1 = await start(capped);
    const e1 = await c1.next("error");
    expect(e1.code).toBe(StatusCode.DailyQuotaExceeded);
    expect(e1.message).toMatch(/quota/i);
    expect((await c1.closed).code).toBe(LiveCloseCode.NoTimeLeft);

    const broke = await userWithTime(0);
    const c2 = await Client.connect(wsOf(t), { cookie: broke.cookie });
    c2.send({ type: "start", language: "en" });
    const e2 = await c2.next("error");
    expect(e2.code).toBe(StatusCode.StorageQuotaExceeded);
    // the page's language (zh by default)
    expect(e2.message).toBe("存储额度不足");
    expect((await c2.closed).code).toBe(LiveCloseCode.NoTimeLeft);
    expect(await t.db.liveSession.count({ where: { userId: { in: [capped.userId, broke.userId] } } })).toBe(0);
  });

  it("stops a session whose time runs out midway: the error, then the socket closes; nothing decoded unpaid", {
    timeout: 60_000,
  }, async () => {
    const user = await userWithTime(8);
    const c = await start(user);
    const ready = await c.next("ready");
    const session = live.hub.session(ready.sessionId)!;
    await c.stream(speech, 0, 20 * RATE, 4);
    const error = await c.next("error", 30_000);
    const refusedAt = performance.now();
    expect(error.code).toBe(StatusCode.StorageQuotaExceeded);
    expect(error.message).toBe("Not enough transcription time left.");
    expect((await c.closed).code).toBe(LiveCloseCode.NoTimeLeft);
    // at once, though the worker had stopped reading the socket (the client was ahead of the pacing)
    expect(performance.now() - refusedAt).toBeLessThan(5000);
    expect(session.fed).toBeLessThanOrEqual(8 * RATE);
    expect(c.messages.some((m) => (m.type === "partial" || m.type === "final") && m.text)).toBe(true);
    await live.hub.settled();
    const row = await t.db.liveSession.findUniqueOrThrow({ where: { id: ready.sessionId } });
    expect(row).toMatchObject({ secondsCharged: 8, endReason: "refused" });
    expect(await charged(user.userId)).toEqual({ cards: 8, today: 8 });
  });

  it("Mandarin on English captions (issue 41): the page is told what was heard, the socket closes, nothing is charged", {
    timeout: 90_000,
  }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "yuelu-live-zh-"));
    try {
      const file = path.join(dir, "mandarin.wav");
      execFileSync("espeak-ng", [
        ...["-v", "cmn", "-w", file],
        "今天下午三点我们在会议室讨论明年的预算。大家都同意先修理图书馆的屋顶，然后再买新的电脑。这个季度的销售额比去年同期增长了百分之十五。",
      ]);
      const mandarin = Int16Array.from((await decodeToPcm(file)).samples as Int16Array);
      const user = await userWithTime(3600);
      const c = await Client.connect(wsOf(t), { cookie: user.cookie, lang: "zh" });
      c.send({ type: "start", language: "en" });
      const ready = await c.next("ready");
      await c.stream(mandarin, 0, mandarin.length, 4);
      const told = await c.next("unavailable", 60_000);
      expect(told.reason).toMatch(/^这段录音听起来是中文/);
      expect((await c.closed).code).toBe(LiveCloseCode.Unavailable);
      await live.hub.settled();
      const row = await t.db.liveSession.findUniqueOrThrow({ where: { id: ready.sessionId } });
      expect(row).toMatchObject({ secondsCharged: 0, endReason: "refused" });
      expect(await charged(user.userId)).toEqual({ cards: 0, today: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the page's client (features/records/live/live-client.ts)", () => {
  it("ends its captions for good when the time runs out, says why, and names its session for the upload", {
    timeout: 60_000,
  }, async () => {
    const user = await userWithTime(6);
    // the browser sends the session cookie by itself; here the socket class adds it
    class CookieSocket extends WebSocket {
      constructor(url: string) {
        super(url, { headers: { cookie: user.cookie } });
      }
    }
    const saved = globalThis.WebSocket;
    (globalThis as { WebSocket: unknown }).WebSocket = CookieSocket;
    try {
      const states: LiveCaptionState[] = [];
      const client = new LiveCaptionClient({
        language: "en",
        lang: "zh",
        url: wsOf(t),
        onChange: (s) => states.push(s),
      });
      for (let o = 0; o < 12 * RATE; o += FRAME) {
        client.push(speech.subarray(o, o + FRAME));
        await sleep(50);
      }
      await waitUntil(() => states.at(-1)?.status === "stopped");
      const last = states.at(-1)!;
      expect(last.message).toBe("存储额度不足");
      expect(last.sessionIds).toHaveLength(1);
      // no reconnect, no new session: the recording goes on without captions
      await sleep(1500);
      expect(states.some((s) => s.status === "reconnecting")).toBe(false);
      expect(await t.db.liveSession.count({ where: { userId: user.userId } })).toBe(1);
      await client.stop();
      expect(states.at(-1)!.status).toBe("stopped");
    } finally {
      (globalThis as { WebSocket: unknown }).WebSocket = saved;
    }
  });
});

describe("sessions across nodes", () => {
  const open: Client[] = [];
  const stopAll = async () => {
    for (const c of open.splice(0)) {
      if (c.socket.readyState === c.socket.OPEN) c.send({ type: "stop" });
      await c.closed;
    }
    await live.hub.settled();
  };

  it("dropped sockets take no worker's place and never lock their owner out; another user still gets in", {
    timeout: 60_000,
  }, async () => {
    const a = await userWithTime(3600);
    const b = await userWithTime(3600);
    // A drops more sessions than the worker has places: each waits for a resume
    for (let i = 0; i < MAX_SESSIONS; i++) {
      const c = await start(a);
      const ready = await c.next("ready");
      c.socket.terminate();
      await c.closed;
      // as a browser does (its first retry comes after 0.5 s): the drop is recorded by then
      for (let w = 0; w < 50; w++) {
        const row = await t.db.liveSession.findUnique({ where: { id: ready.sessionId } });
        if (row?.waitingSince) break;
        await sleep(20);
      }
    }
    // A holds at most their own limit, all waiting; the older ones gave way
    const waiting = await held(a.userId);
    expect(waiting).toHaveLength(MAX_PER_USER);
    expect(waiting.every((s) => s.waitingSince !== null)).toBe(true);
    expect(await t.db.liveSession.count({ where: { userId: a.userId, endReason: "replaced" } })).toBe(
      MAX_SESSIONS - MAX_PER_USER,
    );
    expect(live.hub.connected).toBe(0);

    // B is not refused because of A's dropped sockets
    const cb = await start(b);
    open.push(cb);
    expect((await cb.next("ready")).sessionId).toBeTruthy();

    // A at the limit starts again: the oldest waiting session ends instead of A being refused
    const oldest = waiting[0]!;
    const a1 = await start(a);
    open.push(a1);
    await a1.next("ready");
    expect(await t.db.liveSession.findUniqueOrThrow({ where: { id: oldest.id } })).toMatchObject({
      endReason: "replaced",
    });
    // …and it cannot be resumed any more
    const resumed = await Client.connect(wsOf(t), { cookie: a.cookie });
    resumed.send({ type: "resume", sessionId: oldest.id });
    expect((await resumed.closed).code).toBe(LiveCloseCode.Gone);
    const a2 = await start(a);
    open.push(a2);
    await a2.next("ready");
    // both of A's places are open now: a third start is refused
    const a3 = await start(a);
    expect((await a3.next("error")).code).toBe(StatusCode.TooManyRequests);
    expect((await a3.closed).code).toBe(LiveCloseCode.TooMany);
    expect(await held(a.userId)).toHaveLength(MAX_PER_USER);
    await stopAll();
  });

  it("two API nodes cannot let one user pass the limit with parallel starts", { timeout: 60_000 }, async () => {
    const user = await userWithTime(3600);
    const clients = await Promise.all([start(user, t), start(user, t2), start(user, t), start(user, t2)]);
    open.push(...clients);
    const outcomes = await Promise.all(
      clients.map(async (c) => {
        for (;;) {
          const first = c.messages.find((m) => m.type === "ready" || m.type === "error");
          if (first) return first.type === "ready" ? "ready" : first.code;
          if (c.socket.readyState >= c.socket.CLOSING) return "closed";
          await sleep(20);
        }
      }),
    );
    expect(outcomes.filter((o) => o === "ready")).toHaveLength(MAX_PER_USER);
    expect(outcomes.filter((o) => o === StatusCode.TooManyRequests)).toHaveLength(clients.length - MAX_PER_USER);
    expect(await held(user.userId)).toHaveLength(MAX_PER_USER);
    await stopAll();
  });

  it("a session its worker lost (crashed) stops counting once it is not seen for a minute", async () => {
    const user = await userWithTime(3600);
    const longAgo = new Date(Date.now() - 5 * 60_000);
    for (let i = 0; i < MAX_PER_USER; i++) {
      await t.db.liveSession.create({
        data: {
          id: `gone-worker.${randomUUID()}`,
          userId: user.userId,
          workerId: "gone-worker",
          language: "en",
          startedAt: longAgo,
          lastSeenAt: longAgo,
        },
      });
    }
    const c = await start(user);
    open.push(c);
    await c.next("ready");
    await stopAll();
  });
});
