import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { LIVE_PATH, LiveCloseCode, type LiveWorkerHello, StatusCode } from "@yuelu/contracts";
import { cookieSecret, liveTokenOf, loadConfig, loadLiveConfig, startHeartbeat } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LiveCaptionClient, type LiveCaptionState } from "../../apps/web/src/features/records/live/live-client.ts";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { detectSpeech } from "../../apps/worker/src/audio/vad.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { type LiveCaptions, startLiveCaptions } from "../../apps/worker/src/live/index.ts";
import { createTestApp, type SignedIn, signIn, TEST_COOKIE_SECRET, type TestApp } from "../helpers/app.ts";
import { seedCards } from "../helpers/factories.ts";
import { Client, FRAME, JFK, RATE } from "../helpers/live.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/**
 * Live captions (docs/live.md): a real English recording (whisper.cpp's JFK sample) streamed in
 * real-time-sized frames to a worker's streaming session, directly and through the API's WebSocket;
 * the captions are compared with the batch Moonshine transcript of the same file.
 */

let pcm: Int16Array;
let batchText: string;
let firstSpeechMs: number;
let live: LiveCaptions;
let t: TestApp;
let wsBase: string;
let alice: SignedIn;
let stopHeartbeat: () => Promise<void>;
const workerId = randomUUID();
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  const decoded = await decodeToPcm(JFK);
  pcm = Int16Array.from(decoded.samples as Int16Array);
  firstSpeechMs = detectSpeech(decoded)[0]!.startMs;
  const batch = await new MoonshineEngine().transcribe(JFK, { language: "en" });
  batchText = batch.segments.map((s) => s.text).join(" ");
  t = await createTestApp();
  alice = await signIn(t);
  // live audio is transcription time (docs/live.md "Metering"): Alice has plenty
  await seedCards(t.db, alice.userId, [{ seconds: 10 * 3600 }]);
  const started = await startLiveCaptions({
    workerId,
    log: quiet,
    domain: t.domain,
    // no LIVE_TOKEN: derived from the cookie secret, as the API derives it
    cookieSecret: TEST_COOKIE_SECRET,
    live: loadLiveConfig({ LIVE_PORT: "0", LIVE_MAX_SESSIONS: "3" }),
  });
  if (!started) throw new Error("live captions did not start");
  live = started;
  // the API finds the worker the way it does in production: through its heartbeat
  const heartbeat = startHeartbeat(t.db, workerId, () => live.reports());
  await heartbeat.beat();
  stopHeartbeat = heartbeat.stop;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await stopHeartbeat?.();
  await live?.close();
  await t?.close();
});

const api = (headers: Record<string, string> = {}) =>
  Client.connect(`${wsBase}${LIVE_PATH}`, { lang: "en", ...headers });
/** The worker's own socket, as the API dials it: with the token. */
const workerSocket = () =>
  Client.connect(live.server.url, { authorization: `Bearer ${liveTokenOf(TEST_COOKIE_SECRET)}` });

describe("the worker's streaming session", () => {
  it("captions a real English recording within ~2 s of the first speech and ends on the batch text", {
    timeout: 60_000,
  }, async () => {
    const c = await workerSocket();
    c.send({ type: "open", userId: alice.userId, language: "en" } satisfies LiveWorkerHello);
    const ready = await c.next("ready");
    expect(ready.language).toBe("en");
    expect(ready.engine).toBe("moonshine");
    expect(ready.received).toBe(0);
    const audioStart = c.at[0]!;
    await c.stream(pcm, 0, pcm.length, 1);
    c.send({ type: "stop" });
    const closed = await c.next("closed");
    expect(closed.received).toBe(pcm.length);
    expect((await c.closed).code).toBe(LiveCloseCode.Done);

    const latency = c.firstCaptionAt() - audioStart - firstSpeechMs;
    const { wer } = wordErrorRate(batchText, c.finals());
    console.log(
      `live (worker): first caption ${Math.round(latency)} ms after the first speech; WER vs batch ${(wer * 100).toFixed(1)} %\n  live:  ${c.finals()}\n  batch: ${batchText}`,
    );
    expect(latency).toBeLessThanOrEqual(2000);
    expect(wer).toBeLessThanOrEqual(0.15);
    // partials came before the end: the text kept correcting itself while the audio arrived
    expect(c.messages.filter((m) => m.type === "partial" && m.text).length).toBeGreaterThanOrEqual(3);
  });

  it("says at once that Chinese needs a streaming model when none is installed", async () => {
    const c = await workerSocket();
    c.send({ type: "open", userId: alice.userId, language: "zh" } satisfies LiveWorkerHello);
    const unavailable = await c.next("unavailable");
    expect(unavailable.reason).toMatch(/streaming/i);
    expect((await c.closed).code).toBe(LiveCloseCode.Unavailable);
  });
});

describe("the worker's live server: the token, always", () => {
  it("refuses a socket without the shared token, and takes one with it", async () => {
    const secret = "c".repeat(40);
    const guarded = await startLiveCaptions({
      workerId: randomUUID(),
      log: quiet,
      domain: t.domain,
      // LIVE_TOKEN unset: derived from COOKIE_SECRET, as the API derives it
      live: loadLiveConfig({ LIVE_PORT: "0", COOKIE_SECRET: secret }),
    });
    try {
      const token = loadLiveConfig({ COOKIE_SECRET: secret }).LIVE_TOKEN!;
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(token).toBe(liveTokenOf(secret));
      await expect(Client.connect(guarded!.server.url)).rejects.toThrow(/401/);
      await expect(
        Client.connect(guarded!.server.url, { authorization: "Bearer wrong-token-wrong-token" }),
      ).rejects.toThrow(/401/);
      const c = await Client.connect(guarded!.server.url, { authorization: `Bearer ${token}` });
      c.send({ type: "open", userId: alice.userId, language: "en" } satisfies LiveWorkerHello);
      expect((await c.next("ready")).received).toBe(0);
      c.socket.close();
    } finally {
      await guarded?.close();
    }
  });

  it("in development too: a socket that says `open` for any user without the token is refused", async () => {
    // a development install: no COOKIE_SECRET, no LIVE_TOKEN; API and worker share DATA_DIR, and so
    // the cookie secret generated there — both derive the token from it, even when they start at once
    const config = loadConfig({ NODE_ENV: "development", DATABASE_URL: t.databaseUrl, DATA_DIR: t.config.dataDir });
    const [forApi, forWorker] = await Promise.all([cookieSecret(config), cookieSecret(config)]);
    expect(forWorker).toBe(forApi);
    const dev = await startLiveCaptions({
      workerId: randomUUID(),
      log: quiet,
      domain: t.domain,
      cookieSecret: forWorker,
      live: loadLiveConfig({ NODE_ENV: "development", LIVE_PORT: "0" }),
    });
    try {
      expect(dev).toBeDefined();
      // the hostile client of issue 40: straight to the worker, naming someone else's account
      await expect(Client.connect(dev!.server.url)).rejects.toThrow(/401/);
      await expect(
        Client.connect(dev!.server.url, { authorization: `Bearer ${liveTokenOf("someone-elses-secret-".repeat(2))}` }),
      ).rejects.toThrow(/401/);
      const c = await Client.connect(dev!.server.url, { authorization: `Bearer ${liveTokenOf(forApi)}` });
      c.send({ type: "open", userId: alice.userId, language: "en" } satisfies LiveWorkerHello);
      expect((await c.next("ready")).received).toBe(0);
      c.socket.close();
    } finally {
      await dev?.close();
    }
  });

  it("will not listen without a token to check", async () => {
    const refused = await startLiveCaptions({
      workerId: randomUUID(),
      log: quiet,
      domain: t.domain,
      live: loadLiveConfig({ LIVE_PORT: "0" }),
    });
    expect(refused).toBeUndefined();
  });
});

describe("the API's WebSocket", () => {
  it("refuses an anonymous caller with 10001 and a clear close", async () => {
    const c = await api();
    const error = await c.next("error");
    expect(error.code).toBe(StatusCode.NotLoggedIn);
    expect(error.message).toMatch(/sign in|log in|not logged/i);
    expect((await c.closed).code).toBe(LiveCloseCode.NotLoggedIn);
  });

  it("refuses a socket opened by another site's page (cross-site WebSocket hijacking), takes this site's", async () => {
    const refused = await api({ cookie: alice.cookie, origin: "https://evil.example" }).then(
      () => "opened",
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/403/);
    const fetched = await api({ cookie: alice.cookie, "sec-fetch-site": "cross-site" }).then(
      () => "opened",
      (error: Error) => error.message,
    );
    expect(fetched).toMatch(/403/);
    const own = await api({ cookie: alice.cookie, origin: new URL(wsBase.replace(/^ws/, "http")).origin });
    own.send({ type: "start", language: "en" });
    expect((await own.next("ready")).type).toBe("ready");
    own.send({ type: "stop" });
    own.socket.close();
    await own.closed;
  });

  it("relays a stream to the worker: captions, acks and the final text", { timeout: 60_000 }, async () => {
    const c = await api({ cookie: alice.cookie });
    c.send({ type: "start", language: "en" });
    const ready = await c.next("ready");
    expect(ready.sessionId.startsWith(`${workerId}.`)).toBe(true);
    const audioStart = c.at[0]!;
    await c.stream(pcm, 0, pcm.length, 1);
    c.send({ type: "stop" });
    expect((await c.next("closed")).received).toBe(pcm.length);
    expect((await c.closed).code).toBe(LiveCloseCode.Done);
    const acks = c.messages.filter((m) => m.type === "ack");
    expect(acks.at(-1)).toEqual({ type: "ack", received: pcm.length });
    const latency = c.firstCaptionAt() - audioStart - firstSpeechMs;
    const { wer } = wordErrorRate(batchText, c.finals());
    console.log(
      `live (API): first caption ${Math.round(latency)} ms after the first speech; WER ${(wer * 100).toFixed(1)} %`,
    );
    expect(latency).toBeLessThanOrEqual(2000);
    expect(wer).toBeLessThanOrEqual(0.15);
  });

  it("keeps two streams at once apart, and refuses a user's third", { timeout: 60_000 }, async () => {
    const split = 5 * RATE;
    const a = await api({ cookie: alice.cookie });
    const b = await api({ cookie: alice.cookie });
    a.send({ type: "start", language: "en" });
    b.send({ type: "start", language: "en" });
    const [ra, rb] = await Promise.all([a.next("ready"), b.next("ready")]);
    expect(ra.sessionId).not.toBe(rb.sessionId);
    // the same user's third stream: LIVE_MAX_PER_USER (2)
    const third = await api({ cookie: alice.cookie });
    third.send({ type: "start", language: "en" });
    expect((await third.next("error")).code).toBe(StatusCode.TooManyRequests);
    expect((await third.closed).code).toBe(LiveCloseCode.TooMany);

    const first = pcm.subarray(0, split);
    const second = pcm.subarray(split);
    await Promise.all([a.stream(first, 0, first.length, 2), b.stream(second, 0, second.length, 2)]);
    a.send({ type: "stop" });
    b.send({ type: "stop" });
    expect((await a.next("closed")).received).toBe(first.length);
    expect((await b.next("closed")).received).toBe(second.length);
    // both end cleanly, which frees the user's two places
    expect((await a.closed).code).toBe(LiveCloseCode.Done);
    expect((await b.closed).code).toBe(LiveCloseCode.Done);
    const ta = a.finals().toLowerCase();
    const tb = b.finals().toLowerCase();
    console.log(`two streams: A "${ta}" / B "${tb}"`);
    expect(ta).toMatch(/fellow/);
    expect(ta).not.toMatch(/your country/);
    expect(tb).toMatch(/your country/);
    expect(tb).not.toMatch(/fellow/);
  });

  it("resumes a dropped connection without losing audio", { timeout: 60_000 }, async () => {
    const c1 = await api({ cookie: alice.cookie });
    c1.send({ type: "start", language: "en" });
    const ready = await c1.next("ready");
    const half = Math.floor(pcm.length / 2 / FRAME) * FRAME;
    await c1.stream(pcm, 0, half, 2);
    // the network drops: no close handshake
    c1.socket.terminate();
    await c1.closed;
    const acked = c1.messages.filter((m) => m.type === "ack").at(-1);

    const c2 = await api({ cookie: alice.cookie });
    c2.send({ type: "resume", sessionId: ready.sessionId });
    const resumed = await c2.next("ready");
    expect(resumed.sessionId).toBe(ready.sessionId);
    // the server kept what it acknowledged (and maybe more): the client resends from there
    expect(resumed.received).toBeGreaterThanOrEqual(acked?.type === "ack" ? acked.received : 0);
    expect(resumed.received).toBeLessThanOrEqual(half);
    // a frame the server already has is counted once, even when sent again
    await c2.stream(pcm, Math.max(0, resumed.received - FRAME), resumed.received, 4);
    await c2.stream(pcm, resumed.received, pcm.length, 2);
    c2.send({ type: "stop" });
    const closed = await c2.next("closed");
    expect(closed.received).toBe(pcm.length);
    const text = [...resumed.finals.map((f) => f.text), c2.finals()].join(" ");
    const { wer } = wordErrorRate(batchText, text);
    console.log(`resumed at ${resumed.received} samples: WER ${(wer * 100).toFixed(1)} %: ${text}`);
    expect(wer).toBeLessThanOrEqual(0.15);
  });

  it("refuses to resume another user's session", async () => {
    const c1 = await api({ cookie: alice.cookie });
    c1.send({ type: "start", language: "en" });
    const ready = await c1.next("ready");
    const bob = await signIn(t);
    const c2 = await api({ cookie: bob.cookie });
    c2.send({ type: "resume", sessionId: ready.sessionId });
    await c2.next("error");
    expect((await c2.closed).code).toBe(LiveCloseCode.Gone);
    c1.send({ type: "stop" });
    await c1.closed;
  });

  it("tells the page, in users' words, that Chinese live captions are not available", async () => {
    const c = await api({ cookie: alice.cookie });
    c.send({ type: "start", language: "zh" });
    const unavailable = await c.next("unavailable");
    expect(unavailable.reason).toBe("Live captions for Chinese are not available yet");
    expect((await c.closed).code).toBe(LiveCloseCode.Unavailable);
  });
});

describe("the page's client (features/records/live/live-client.ts)", () => {
  it("reconnects after the connection drops and resends what the server lacks: no audio lost", {
    timeout: 60_000,
  }, async () => {
    // the browser sends the session cookie by itself; here the socket class adds it
    const cookie = alice.cookie;
    class CookieSocket extends WebSocket {
      constructor(url: string) {
        super(url, { headers: { cookie } });
      }
    }
    const saved = globalThis.WebSocket;
    (globalThis as { WebSocket: unknown }).WebSocket = CookieSocket;
    try {
      const states: LiveCaptionState[] = [];
      const client = new LiveCaptionClient({
        language: "en",
        lang: "en",
        url: `${wsBase}${LIVE_PATH}`,
        onChange: (s) => states.push(s),
      });
      // the microphone: 85 ms blocks (a ScriptProcessor's 4096 samples at 48 kHz), twice real time
      const block = 1365;
      let dropped = false;
      for (let o = 0; o < pcm.length; o += block) {
        client.push(pcm.subarray(o, Math.min(pcm.length, o + block)));
        if (!dropped && o > pcm.length / 2) {
          // the network drops every live connection at the API, mid-recording
          dropped = true;
          for (const socket of t.app.websocketServer.clients) socket.terminate();
        }
        await new Promise((resolve) => setTimeout(resolve, (block / RATE / 2) * 1000));
      }
      await client.stop();
      const last = states.at(-1)!;
      expect(states.some((s) => s.status === "reconnecting")).toBe(true);
      expect(last.status).toBe("done");
      expect(last.received).toBe(pcm.length);
      const text = last.finals.map((f) => f.text).join(" ");
      const { wer } = wordErrorRate(batchText, text);
      console.log(
        `page client after a drop: WER ${(wer * 100).toFixed(1)} %, first caption ${last.firstCaptionMs} ms: ${text}`,
      );
      expect(wer).toBeLessThanOrEqual(0.15);
    } finally {
      (globalThis as { WebSocket: unknown }).WebSocket = saved;
    }
  });
});
