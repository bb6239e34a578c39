import { encodeLiveFrame, type LiveServerMessage, type LiveWorkerHello } from "@yuelu/contracts";
import WebSocket from "ws";

/** whisper.cpp's JFK sample: 11 s of real English speech */
export const JFK = "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3";
export const RATE = 16_000;
/** 200 ms frames, as the browser sends them */
export const FRAME = RATE / 5;

/** A test client of a live-caption socket (the API's or a worker's): records every message, sends audio frames by offset. */
export class Client {
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
