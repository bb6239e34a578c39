import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import {
  encodeLiveFrame,
  LIVE_PATH,
  LiveCloseCode,
  type LiveServerMessage,
  type LiveWorkerHello,
  StatusCode,
} from "@yuelu/contracts";
import { loadLiveConfig, startHeartbeat } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LiveCaptionClient, type LiveCaptionState } from "../../apps/web/src/features/records/live/live-client.ts";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { detectSpeech } from "../../apps/worker/src/audio/vad.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { type LiveCaptions, startLiveCaptions } from "../../apps/worker/src/live/index.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/**
 * Live captions (docs/live.md): a real English recording (whisper.cpp's JFK sample) streamed in
 * real-time-sized frames to a worker's streaming session, directly and through the API's WebSocket;
 * the captions are compared with the batch Moonshine transcript of the same file.
 */

const JFK = "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3";
const RATE = 16_000;
/** 200 ms frames, as the browser sends them */
const FRAME = RATE / 5;

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
  const started = await startLiveCaptions({
    workerId,
    log: quiet,
    live: loadLiveConfig({ LIVE_PORT: "0", LIVE_MAX_SESSIONS: "3" }),
  });
  if (!started) throw new Error("live captions did not start");
  live = started;
  t = await createTestApp();
  // the API finds the worker the way it does in production: through its heartbeat
  const heartbeat = startHeartbeat(t.db, workerId, () => live.reports());
  await heartbeat.beat();
  stopHeartbeat = heartbeat.stop;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  alice = await signIn(t);
}, 120_000);

afterAll(async () => {
  await stopHeartbeat?.();
  await live?.close();
  await t?.close();
});

/** A test client: records every message, sends audio frames by offset. */
class Client {
  readonly messages: LiveServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** ms since connecting, per message */
  readonly at: number[] = [];
  private readonly opened = performance.now();
  private waiters: (() => void)[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      this.messages.push(JSON.parse(String(data)));
      this.at.push(performance.now() - this.opened);
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => {
      socket.on("close", (code, reason) => {
        for (const w of this.waiters.splice(0)) w();
        resolve({ code, reason: String(reason) });
      });
    });
  }

  static async connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
    const socket = new WebSocket(url, { headers });
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return client;
  }

  send(message: object | LiveWorkerHello) {
    this.socket.send(JSON.stringify(message));
  }

  async next<T extends LiveServerMessage["type"]>(
    type: T,
    timeoutMs = 20_000,
  ): Promise<Extract<LiveServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.messages.find((m) => m.type === type);
      if (hit) return hit as Extract<LiveServerMessage, { type: T }>;
      if (this.socket.readyState >= WebSocket.CLOSING || Date.now() > deadline) {
        throw new Error(`no ${type}: ${JSON.stringify(this.messages.slice(-5))}`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Sends samples [from, to) of `audio` in 200 ms frames, `speed` times faster than real time. */
  async stream(audio: Int16Array, from: number, to: number, speed = 1, base = 0) {
    const started = performance.now();
    for (let o = from; o < to; o += FRAME) {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      this.socket.send(encodeLiveFrame(base + o, audio.subarray(o, Math.min(to, o + FRAME))));
      const due = ((o + FRAME - from) / RATE / speed) * 1000;
      const wait = due - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  finals(): string {
    return this.messages
      .filter((m): m is Extract<LiveServerMessage, { type: "final" }> => m.type === "final")
      .map((m) => m.text)
      .join(" ");
  }

  /** When (ms since connecting) the first non-empty partial or final arrived. */
  firstCaptionAt(): number {
    const i = this.messages.findIndex((m) => (m.type === "partial" || m.type === "final") && m.text.trim() !== "");
    return i < 0 ? Number.POSITIVE_INFINITY : this.at[i]!;
  }
}

const api = (headers: Record<string, string> = {}) =>
  Client.connect(`${wsBase}${LIVE_PATH}`, { lang: "en", ...headers });

describe("the worker's streaming session", () => {
  it("captions a real English recording within ~2 s of the first speech and ends on the batch text", {
    timeout: 60_000,
  }, async () => {
    const c = await Client.connect(live.server.url);
    c.send({ type: "open", userId: 1, language: "en" } satisfies LiveWorkerHello);
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
    const c = await Client.connect(live.server.url);
    c.send({ type: "open", userId: 1, language: "zh" } satisfies LiveWorkerHello);
    const unavailable = await c.next("unavailable");
    expect(unavailable.reason).toMatch(/streaming/i);
    expect((await c.closed).code).toBe(LiveCloseCode.Unavailable);
  });
});

describe("the worker's live server with a token (workers on other machines)", () => {
  it("refuses a socket without the shared token, and takes one with it", async () => {
    const secret = "c".repeat(40);
    const guarded = await startLiveCaptions({
      workerId: randomUUID(),
      log: quiet,
      // LIVE_TOKEN unset: derived from COOKIE_SECRET, as the API derives it
      live: loadLiveConfig({ LIVE_PORT: "0", COOKIE_SECRET: secret }),
    });
    try {
      const token = loadLiveConfig({ COOKIE_SECRET: secret }).LIVE_TOKEN!;
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      await expect(Client.connect(guarded!.server.url)).rejects.toThrow(/401/);
      await expect(
        Client.connect(guarded!.server.url, { authorization: "Bearer wrong-token-wrong-token" }),
      ).rejects.toThrow(/401/);
      const c = await Client.connect(guarded!.server.url, { authorization: `Bearer ${token}` });
      c.send({ type: "open", userId: 1, language: "en" } satisfies LiveWorkerHello);
      expect((await c.next("ready")).received).toBe(0);
      c.socket.close();
    } finally {
      await guarded?.close();
    }
  });

  it("will not listen beyond this machine without a token", async () => {
    const refused = await startLiveCaptions({
      workerId: randomUUID(),
      log: quiet,
      live: loadLiveConfig({ LIVE_HOST: "0.0.0.0", LIVE_PORT: "0" }),
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

  it("tells the page that Chinese live captions need a streaming model", async () => {
    const c = await api({ cookie: alice.cookie });
    c.send({ type: "start", language: "zh" });
    const unavailable = await c.next("unavailable");
    expect(unavailable.reason).toMatch(/streaming model/);
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
