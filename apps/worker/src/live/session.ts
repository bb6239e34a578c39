import {
  type HeardLanguage,
  type Lang,
  LIVE_SAMPLE_RATE,
  LiveCloseCode,
  type LiveFinalSegment,
  type LiveWorkerReply,
  liveCloseCodeOf,
  statusMessage,
  wrongLanguageMessage,
} from "@yuelu/contracts";
import type { LiveEndReason } from "@yuelu/domain";
import type { LiveHub } from "./hub.ts";
import { SessionMeter } from "./metering.ts";
import type { LiveStream, LiveUpdate } from "./stream.ts";

/** How often a stream's new audio is decoded once its utterance has some text (a partial at most this often). */
export const LIVE_STEP_MS = 500;
/** …and while the utterance has none yet: the first words of each utterance show sooner. */
const FIRST_WORDS_STEP_MS = 250;
/**
 * Audio a stream may hold undecoded before its socket stops being read (TCP then slows the sender):
 * a decoder that falls behind, or a client sending faster than real time, cannot grow memory.
 */
const SATURATED_SAMPLES = 30 * LIVE_SAMPLE_RATE;

export interface LiveLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** What a session answers on: its socket while connected. */
export interface LiveSink {
  send(message: LiveWorkerReply): void;
  close(code: number, reason: string): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One recording's live captions on this worker: the audio received (by sample offset, so a resent
 * frame is counted once), the part of it not yet handed to the recogniser (held back until it is
 * paid and wall time allows it: metering.ts), the captions so far, and the socket it answers on —
 * none while the connection is down, for LIVE_RESUME_WINDOW_MS, after which the session ends.
 */
export class LiveSession {
  /** samples received, in order, without gaps */
  received = 0;
  /** samples handed to the recogniser: paid, and never ahead of the pacing */
  fed = 0;
  readonly finals: LiveFinalSegment[] = [];
  partial = "";
  /** the page's language, for the messages it is sent */
  lang: Lang = "zh";
  private readonly held: Float32Array[] = [];
  private heldSamples = 0;
  private readonly meter: SessionMeter;
  private sink?: LiveSink;
  private timer?: NodeJS.Timeout;
  private expiry?: NodeJS.Timeout;
  private decoding: Promise<void> = Promise.resolve();
  private busy = false;
  private decodedAt = 0;
  private lastDecodeAt = 0;
  private ended = false;
  private stopping = false;
  /** ended because the speech was not the stream's language: nothing is charged */
  private wrongLanguage = false;
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
    this.meter = new SessionMeter({ id, userId }, hub.meterSettings);
    this.timer = setInterval(() => this.tick(), Math.min(hub.stepMs, FIRST_WORDS_STEP_MS));
    this.timer.unref();
  }

  get closed(): boolean {
    return this.ended;
  }

  get connected(): boolean {
    return this.sink !== undefined;
  }

  /**
   * Stop reading the socket: too much audio waits to be decoded, or the client is further ahead of
   * real time than the catch-up allows (its audio waits in TCP until wall time catches up).
   */
  get saturated(): boolean {
    return (
      this.stream.pendingSamples + this.heldSamples >= SATURATED_SAMPLES || this.received >= this.meter.readLimit()
    );
  }

  /** Takes a socket (a new or resumed connection): tells it where the stream stands. */
  attach(sink: LiveSink, lang: Lang) {
    clearTimeout(this.expiry);
    this.expiry = undefined;
    this.sink = sink;
    this.lang = lang;
    this.onDrain = undefined;
    sink.send({
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
    this.onDrain = undefined;
    this.hub.waiting(this);
    this.expiry = setTimeout(() => this.end("expired"), this.hub.resumeWindowMs);
    this.expiry.unref();
  }

  /**
   * A frame at sample `offset`: what the session already has is skipped (a frame resent after a
   * resume), the rest held for the recogniser. A frame that starts past the end would leave a hole:
   * refused.
   */
  accept(offset: number, pcm: Int16Array): "ok" | "gap" {
    if (this.ended) return "ok";
    if (offset > this.received) return "gap";
    const skip = this.received - offset;
    if (skip < pcm.length) {
      const fresh = pcm.subarray(skip);
      const floats = new Float32Array(fresh.length);
      for (let i = 0; i < fresh.length; i++) floats[i] = fresh[i]! / 32768;
      this.held.push(floats);
      this.heldSamples += floats.length;
      this.received += fresh.length;
      this.feed();
    }
    this.send({ type: "ack", received: this.received });
    return "ok";
  }

  /**
   * The recording stopped: the rest is decoded once it is paid and wall time allows it (never early),
   * then the last finals and `closed` are sent and the session ends.
   */
  async stop(): Promise<void> {
    if (this.ended || this.stopping) return;
    this.stopping = true;
    while (!this.ended && this.fed < this.received) {
      this.feed();
      if (this.fed < this.received) await sleep(50);
    }
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
    this.end("done");
  }

  /** Ends the session here; its row is ended and its charge settled to the audio decoded. */
  end(reason: LiveEndReason) {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    clearTimeout(this.expiry);
    this.stream.dispose();
    this.held.length = 0;
    this.heldSamples = 0;
    this.sink = undefined;
    this.hub.forget(this, reason);
  }

  /** Whole seconds of audio handed to the recogniser: what the session costs in the end (nothing for speech it could not caption). */
  get decodedSeconds(): number {
    return this.wrongLanguage ? 0 : Math.ceil(this.fed / LIVE_SAMPLE_RATE);
  }

  /** Closes the socket with a catalogue error in the page's language, and ends the session. */
  refuse(code: number) {
    if (this.ended) return;
    const sink = this.sink;
    this.send({ type: "error", code, message: statusMessage(code, this.lang) });
    sink?.close(liveCloseCodeOf(code), String(code));
    this.end("refused");
  }

  /**
   * The speech does not sound like the stream's language (English captions of Mandarin would be invented
   * English): the captions stop, the page is told why, and nothing of the session is charged — what was
   * decoded bought no caption worth having. The recording itself goes on in the browser.
   */
  private refuseLanguage(heard: HeardLanguage) {
    const sink = this.sink;
    this.send({ type: "unavailable", language: "en", reason: wrongLanguageMessage(heard, "en", this.lang) });
    sink?.close(LiveCloseCode.Unavailable, "wrong-language");
    this.wrongLanguage = true;
    this.end("refused");
  }

  /** Ended elsewhere (its user's new start replaced it): a connected client starts a new session. */
  replaced() {
    this.sink?.close(LiveCloseCode.Gone, "replaced");
    this.end("replaced");
  }

  private send(message: LiveWorkerReply) {
    this.sink?.send(message);
  }

  /** Hands the recogniser what is paid and due by now; pays the next block ahead when audio waits for it. */
  private feed() {
    if (this.ended) return;
    const limit = this.meter.decodeLimit(this.received);
    while (this.fed < limit && this.held.length > 0) {
      const chunk = this.held[0]!;
      const take = Math.min(chunk.length, limit - this.fed);
      this.stream.push(take === chunk.length ? chunk : chunk.subarray(0, take));
      if (take === chunk.length) this.held.shift();
      else this.held[0] = chunk.subarray(take);
      this.fed += take;
      this.heldSamples -= take;
    }
    this.meter.payAhead(this.received, {
      paid: () => this.feed(),
      refused: (code) => this.refuse(code),
      gone: () => this.replaced(),
    });
  }

  private tick() {
    this.feed();
    if (!this.saturated) this.onDrain?.();
    if (this.busy || this.ended || this.fed === this.decodedAt) return;
    // until the utterance shows text, every tick; then every stepMs
    if (this.partial && performance.now() - this.lastDecodeAt < this.hub.stepMs) return;
    this.lastDecodeAt = performance.now();
    this.busy = true;
    const at = this.fed;
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
    if (update.wrongLanguage) return this.refuseLanguage(update.wrongLanguage);
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
