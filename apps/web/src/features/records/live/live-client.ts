import type { LiveFinalSegment, LiveLanguage, LiveServerMessage } from "@yuelu/contracts";
import {
  encodeLiveFrame,
  LIVE_CLIENT_BUFFER_SECONDS,
  LIVE_PATH,
  LIVE_SAMPLE_RATE,
  LiveCloseCode,
  StatusCode,
} from "@yuelu/contracts/constants";

/** ~200 ms of audio per frame */
const FRAME_SAMPLES = LIVE_SAMPLE_RATE / 5;
/**
 * Audio kept until the server acknowledges it, for a resume. Past this (a long outage) the oldest is
 * let go and the captions start a new session: the recording itself (MediaRecorder) loses nothing.
 */
const MAX_UNACKED_SAMPLES = LIVE_CLIENT_BUFFER_SECONDS * LIVE_SAMPLE_RATE;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
/** how long `stop` waits for the last captions */
const STOP_WAIT_MS = 8000;

/**
 * `refused`: captions could not start (why in `message`); `stopped`: they stopped midway, for good —
 * the user's transcription time ran out (live audio is transcription time). The recording goes on either way.
 */
export type LiveStatus = "connecting" | "live" | "reconnecting" | "unavailable" | "refused" | "stopped" | "done";

export interface LiveCaptionState {
  status: LiveStatus;
  /** captions whose text is fixed, oldest first */
  finals: LiveFinalSegment[];
  /** the still-changing tail */
  partial: string;
  /** why captions are off (unavailable / refused), in the page's language from the server */
  message?: string;
  /** ms from the first audio sent to the first caption text (for the page's tests and the curious) */
  firstCaptionMs?: number;
  /** after the end: samples the server decoded in the last session */
  received?: number;
  /**
   * every live session of this recording, oldest first (one, unless captions had to start anew):
   * the upload names them, so the recording's transcription is not charged again for what they were
   */
  sessionIds: string[];
}

interface Chunk {
  /** sample offset since the start of the recording */
  at: number;
  pcm: Int16Array;
}

/**
 * The browser's side of live captions (docs/live.md): frames of 16 kHz PCM over a WebSocket, each
 * with its offset; everything not yet acknowledged is kept, and a dropped connection is resumed with
 * backoff, resending from what the server says it holds — no audio is lost. Captions of an earlier
 * session (after a session expired) are kept in front of the new one's.
 */
export class LiveCaptionClient {
  private socket?: WebSocket;
  private chunks: Chunk[] = [];
  /** samples pushed so far */
  private total = 0;
  /** the recording offset the current session's sample 0 stands for */
  private sessionBase = 0;
  private sessionId?: string;
  /** finals of sessions before the current one */
  private earlier: LiveFinalSegment[] = [];
  private ready = false;
  private attempt = 0;
  private stopping = false;
  private ended = false;
  private retry?: ReturnType<typeof setTimeout>;
  private firstSentAt?: number;
  private pending = new Int16Array(0);
  private state: LiveCaptionState = { status: "connecting", finals: [], partial: "", sessionIds: [] };
  private onClosed?: () => void;

  constructor(
    private readonly options: {
      language: LiveLanguage;
      lang: "zh" | "en";
      onChange: (state: LiveCaptionState) => void;
      url?: string;
    },
  ) {
    this.connect();
  }

  /** 16 kHz samples of the microphone, as they come */
  push(samples: Int16Array) {
    if (this.ended || this.stopping) return;
    const joined = new Int16Array(this.pending.length + samples.length);
    joined.set(this.pending);
    joined.set(samples, this.pending.length);
    let o = 0;
    for (; o + FRAME_SAMPLES <= joined.length; o += FRAME_SAMPLES) this.enqueue(joined.slice(o, o + FRAME_SAMPLES));
    this.pending = joined.slice(o);
  }

  /** The recording stopped: send what is left, wait (a while) for the last captions, close. */
  async stop(): Promise<void> {
    if (this.ended) return;
    if (this.pending.length) this.enqueue(this.pending);
    this.pending = new Int16Array(0);
    this.stopping = true;
    const closed = new Promise<void>((resolve) => {
      this.onClosed = resolve;
    });
    if (this.ready) this.socket?.send(JSON.stringify({ type: "stop" }));
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS))]);
    this.close();
  }

  /** Ends at once (the recording was discarded or the page left). */
  close() {
    this.ended = true;
    clearTimeout(this.retry);
    this.socket?.close(1000);
    this.chunks = [];
    if (!this.isOff()) this.set({ status: "done" });
    this.onClosed?.();
  }

  /** Captions are off for this recording and say why (the page keeps the reason shown). */
  private isOff(): boolean {
    return this.state.status === "unavailable" || this.state.status === "refused" || this.state.status === "stopped";
  }

  private set(patch: Partial<LiveCaptionState>) {
    this.state = { ...this.state, ...patch };
    this.options.onChange(this.state);
  }

  private enqueue(pcm: Int16Array) {
    const chunk = { at: this.total, pcm };
    this.total += pcm.length;
    this.chunks.push(chunk);
    let held = this.total - (this.chunks[0]?.at ?? this.total);
    while (held > MAX_UNACKED_SAMPLES && this.chunks.length > 1) {
      // too long offline: the oldest audio goes; the next connection starts a new session after it
      this.chunks.shift();
      held = this.total - this.chunks[0]!.at;
      this.sessionId = undefined;
    }
    if (this.ready) this.send(chunk);
  }

  private send(chunk: Chunk) {
    const offset = chunk.at - this.sessionBase;
    if (offset < 0) return;
    this.firstSentAt ??= performance.now();
    this.socket?.send(encodeLiveFrame(offset, chunk.pcm));
  }

  private connect() {
    if (this.ended) return;
    // the page's own origin (read through globalThis: this file is also type-checked, and run, outside a browser)
    const page = (globalThis as unknown as { location?: { protocol: string; host: string } }).location;
    const base =
      this.options.url ?? `${page?.protocol === "https:" ? "wss" : "ws"}://${page?.host ?? "localhost"}${LIVE_PATH}`;
    const socket = new WebSocket(`${base}?lang=${this.options.lang}`);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.ready = false;
    socket.onopen = () => {
      if (this.sessionId) socket.send(JSON.stringify({ type: "resume", sessionId: this.sessionId }));
      else {
        // a new session starts at the oldest audio still held
        this.sessionBase = this.chunks[0]?.at ?? this.total;
        this.earlier = [...this.state.finals];
        socket.send(JSON.stringify({ type: "start", language: this.options.language }));
      }
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      this.receive(JSON.parse(event.data) as LiveServerMessage);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.ready = false;
      if (this.ended) return;
      const final =
        event.code === LiveCloseCode.Done ||
        event.code === LiveCloseCode.NotLoggedIn ||
        event.code === LiveCloseCode.TooMany ||
        event.code === LiveCloseCode.NoTimeLeft ||
        event.code === LiveCloseCode.Unavailable ||
        event.code === LiveCloseCode.InvalidParams;
      if (final || this.stopping) {
        this.ended = true;
        if (
          this.state.status === "connecting" ||
          this.state.status === "live" ||
          this.state.status === "reconnecting"
        ) {
          this.set({ status: "done" });
        }
        this.onClosed?.();
        return;
      }
      // the session is gone (expired, its worker stopped): a new one, from the audio still held
      if (event.code === LiveCloseCode.Gone) this.sessionId = undefined;
      const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!;
      this.attempt++;
      this.set({ status: "reconnecting" });
      this.retry = setTimeout(() => this.connect(), wait);
    };
  }

  private receive(message: LiveServerMessage) {
    switch (message.type) {
      case "ready": {
        this.sessionId = message.sessionId;
        this.ready = true;
        this.attempt = 0;
        const known = this.state.sessionIds;
        this.set({
          status: "live",
          finals: [...this.earlier, ...message.finals],
          partial: message.partial,
          sessionIds: known.includes(message.sessionId) ? known : [...known, message.sessionId],
        });
        this.forget(message.received);
        // resend everything the server does not hold
        for (const chunk of this.chunks) {
          const offset = chunk.at - this.sessionBase;
          const skip = Math.max(0, message.received - offset);
          if (skip >= chunk.pcm.length) continue;
          this.send(skip ? { at: chunk.at + skip, pcm: chunk.pcm.subarray(skip) } : chunk);
        }
        if (this.stopping) this.socket?.send(JSON.stringify({ type: "stop" }));
        break;
      }
      case "ack":
        this.forget(message.received);
        break;
      case "partial":
        this.noteFirst(message.text);
        this.set({ partial: message.text });
        break;
      case "final":
        this.noteFirst(message.text);
        this.set({ finals: [...this.state.finals, message], partial: "" });
        break;
      case "unavailable":
        this.set({ status: "unavailable", message: message.reason });
        break;
      case "error":
        if (message.code === StatusCode.DailyQuotaExceeded || message.code === StatusCode.StorageQuotaExceeded) {
          // no transcription time left: captions end for this recording (it records and uploads as usual)
          this.set({ status: this.ready ? "stopped" : "refused", message: message.message, partial: "" });
        } else if (message.code !== StatusCode.EngineUnavailable || !this.ready) {
          this.set({ status: "refused", message: message.message });
        }
        break;
      case "closed":
        this.set({ status: "done", partial: "", received: message.received });
        break;
    }
  }

  private noteFirst(text: string) {
    if (this.state.firstCaptionMs === undefined && text.trim() && this.firstSentAt !== undefined) {
      this.set({ firstCaptionMs: Math.round(performance.now() - this.firstSentAt) });
    }
  }

  /** The server holds the session's first `received` samples: they need not be kept. */
  private forget(received: number) {
    const upTo = this.sessionBase + received;
    while (this.chunks.length && this.chunks[0]!.at + this.chunks[0]!.pcm.length <= upTo) this.chunks.shift();
  }
}

/**
 * Box-filter resampler from the AudioContext's rate to 16 kHz, across calls: each output sample is
 * the mean of the input samples it covers (a low-pass good enough for speech recognition).
 */
export class Downsampler {
  private readonly ratio: number;
  private carry = 0;
  private sum = 0;
  private count = 0;

  constructor(inputRate: number) {
    this.ratio = inputRate / LIVE_SAMPLE_RATE;
  }

  push(input: Float32Array): Int16Array {
    const out: number[] = [];
    for (let i = 0; i < input.length; i++) {
      this.sum += input[i]!;
      this.count++;
      this.carry += 1;
      if (this.carry >= this.ratio) {
        this.carry -= this.ratio;
        const v = Math.max(-1, Math.min(1, this.sum / this.count));
        out.push(Math.round(v * 32767));
        this.sum = 0;
        this.count = 0;
      }
    }
    return Int16Array.from(out);
  }
}
