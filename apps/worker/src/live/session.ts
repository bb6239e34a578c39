import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import {
  LIVE_RESUME_WINDOW_MS,
  LIVE_SAMPLE_RATE,
  type LiveFinalSegment,
  type LiveLanguage,
  type LiveWorkerReply,
} from "@yuelu/contracts";
import type { LiveEngine, LiveStream, LiveUpdate } from "./stream.ts";

/** How often a stream's new audio is decoded once its utterance has some text (a partial at most this often). */
export const LIVE_STEP_MS = 500;
/** …and while the utterance has none yet: the first words of each utterance show sooner. */
const FIRST_WORDS_STEP_MS = 250;
/**
 * Audio a stream may hold undecoded before its socket stops being read (TCP then slows the sender):
 * a decoder that falls behind, or a client sending faster than real time, cannot grow memory.
 */
const SATURATED_SAMPLES = 30 * LIVE_SAMPLE_RATE;

export type LiveSink = (message: LiveWorkerReply) => void;

export interface LiveLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** A few decodes at once per worker (each on one ONNX thread); more would only slow them all. */
class Limiter {
  private running = 0;
  private waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * One recording's live captions on this worker: the audio received (by sample offset, so a resent
 * frame is counted once), its recogniser, the captions so far, and the socket it answers on — none
 * while the connection is down, for LIVE_RESUME_WINDOW_MS, after which the session ends.
 */
export class LiveSession {
  /** samples received, in order, without gaps */
  received = 0;
  readonly finals: LiveFinalSegment[] = [];
  partial = "";
  private sink?: LiveSink;
  private timer?: NodeJS.Timeout;
  private expiry?: NodeJS.Timeout;
  private decoding: Promise<void> = Promise.resolve();
  private busy = false;
  private decodedAt = 0;
  private lastDecodeAt = 0;
  private ended = false;
  /** called when the session has room again after being saturated */
  onDrain?: () => void;

  constructor(
    readonly id: string,
    readonly userId: number,
    readonly language: "zh" | "en",
    readonly engine: string,
    private readonly stream: LiveStream,
    private readonly hub: LiveHub,
  ) {
    this.timer = setInterval(() => this.tick(), Math.min(hub.stepMs, FIRST_WORDS_STEP_MS));
    this.timer.unref();
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Too much audio waits to be decoded: stop reading until it drains. */
  get saturated(): boolean {
    return this.stream.pendingSamples >= SATURATED_SAMPLES;
  }

  /** Takes a socket (a new or resumed connection): tells it where the stream stands. */
  attach(sink: LiveSink) {
    clearTimeout(this.expiry);
    this.expiry = undefined;
    this.sink = sink;
    sink({
      type: "ready",
      sessionId: this.id,
      engine: this.engine,
      language: this.language,
      received: this.received,
      finals: this.finals,
      partial: this.partial,
    });
  }

  /** The connection dropped: wait for a resume, then end. */
  detach(sink: LiveSink) {
    if (this.sink !== sink || this.ended) return;
    this.sink = undefined;
    this.expiry = setTimeout(() => this.end(), this.hub.resumeWindowMs);
    this.expiry.unref();
  }

  /**
   * A frame at sample `offset`: what the session already has is skipped (a frame resent after a
   * resume), the rest appended. A frame that starts past the end would leave a hole: refused.
   */
  accept(offset: number, pcm: Int16Array): "ok" | "gap" {
    if (this.ended) return "ok";
    if (offset > this.received) return "gap";
    const skip = this.received - offset;
    if (skip < pcm.length) {
      const fresh = pcm.subarray(skip);
      const floats = new Float32Array(fresh.length);
      for (let i = 0; i < fresh.length; i++) floats[i] = fresh[i]! / 32768;
      this.stream.push(floats);
      this.received += fresh.length;
    }
    this.send({ type: "ack", received: this.received });
    return "ok";
  }

  /** The recording stopped: decode the rest, send the last finals and `closed`, end. */
  async stop(): Promise<void> {
    if (this.ended) return;
    clearInterval(this.timer);
    await this.decoding;
    await this.hub.limiter
      .run(() => this.stream.update(true))
      .then(
        (update) => this.emit(update),
        (error) => this.hub.log.error({ err: error, session: this.id }, "live captions: the last decode failed"),
      );
    this.send({ type: "closed", received: this.received });
    this.end();
  }

  end() {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    clearTimeout(this.expiry);
    this.stream.dispose();
    this.sink = undefined;
    this.hub.forget(this);
  }

  private send(message: LiveWorkerReply) {
    this.sink?.(message);
  }

  private tick() {
    if (this.busy || this.ended || this.received === this.decodedAt) return;
    // until the utterance shows text, every tick; then every stepMs
    if (this.partial && performance.now() - this.lastDecodeAt < this.hub.stepMs) return;
    this.lastDecodeAt = performance.now();
    this.busy = true;
    const at = this.received;
    this.decoding = this.hub.limiter
      .run(() => this.stream.update(false))
      .then(
        (update) => {
          this.decodedAt = at;
          this.emit(update);
        },
        (error) => this.hub.log.error({ err: error, session: this.id }, "live captions: decoding failed"),
      )
      .finally(() => {
        this.busy = false;
        if (!this.saturated) this.onDrain?.();
      });
  }

  private emit(update: LiveUpdate) {
    if (this.ended) return;
    for (const final of update.finals) {
      this.finals.push(final);
      this.send({ type: "final", ...final });
    }
    if (update.partial) {
      this.partial = update.partial.text;
      this.send({ type: "partial", text: update.partial.text, startMs: update.partial.startMs });
    }
  }
}

/**
 * The live sessions of one worker process: at most `maxSessions` at once, each with its own
 * recogniser state over the shared models of `engines`.
 */
export class LiveHub {
  private readonly sessions = new Map<string, LiveSession>();
  readonly limiter: Limiter;
  readonly stepMs: number;
  readonly resumeWindowMs: number;
  readonly log: LiveLog;

  constructor(
    private readonly options: {
      workerId: string;
      maxSessions: number;
      engines: { en?: LiveEngine; zh?: LiveEngine };
      log: LiveLog;
      stepMs?: number;
      resumeWindowMs?: number;
      /** decodes at once (default: half the cores, at least 1) */
      concurrency?: number;
    },
  ) {
    this.stepMs = options.stepMs ?? LIVE_STEP_MS;
    this.resumeWindowMs = options.resumeWindowMs ?? LIVE_RESUME_WINDOW_MS;
    this.log = options.log;
    this.limiter = new Limiter(options.concurrency ?? Math.max(1, Math.floor(availableParallelism() / 2)));
  }

  get size(): number {
    return this.sessions.size;
  }

  get maxSessions(): number {
    return this.options.maxSessions;
  }

  /** The engine for a language ('auto': Chinese when a streaming Chinese model is here — it hears English too — else English). */
  engineFor(language: LiveLanguage): { language: "zh" | "en"; engine: LiveEngine } | { reason: string } {
    const usable = (e?: LiveEngine) => (e && !e.missing() ? e : undefined);
    const zh = usable(this.options.engines.zh);
    const en = usable(this.options.engines.en);
    if (language === "zh" || (language === "auto" && zh)) {
      if (zh) return { language: "zh", engine: zh };
      return { reason: this.options.engines.zh?.missing() ?? "no streaming Chinese model is configured" };
    }
    if (en) return { language: "en", engine: en };
    return { reason: this.options.engines.en?.missing() ?? "no English live-caption engine" };
  }

  /** What each language can do here, for the heartbeat. */
  reports(): { language: "zh" | "en"; engine: string; available: boolean; reason?: string }[] {
    return (["en", "zh"] as const).map((language) => {
      const engine = this.options.engines[language];
      const reason = engine ? engine.missing() : "not configured";
      return {
        language,
        engine: engine?.name ?? "none",
        available: !reason,
        ...(reason ? { reason } : {}),
      };
    });
  }

  open(userId: number, language: LiveLanguage): LiveSession | { full: true } | { unavailable: string } {
    const chosen = this.engineFor(language);
    if ("reason" in chosen) return { unavailable: chosen.reason };
    if (this.sessions.size >= this.options.maxSessions) return { full: true };
    const id = `${this.options.workerId}.${randomUUID()}`;
    const session = new LiveSession(
      id,
      userId,
      chosen.language,
      chosen.engine.name,
      chosen.engine.createStream(),
      this,
    );
    this.sessions.set(id, session);
    return session;
  }

  /** The session to resume: only its own user's, and only while it waits. */
  find(userId: number, sessionId: string): LiveSession | undefined {
    const session = this.sessions.get(sessionId);
    return session && session.userId === userId && !session.closed ? session : undefined;
  }

  forget(session: LiveSession) {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
  }

  close() {
    for (const session of [...this.sessions.values()]) session.end();
  }
}
