import type { HeardLanguage } from "@yuelu/contracts";

/**
 * A live-caption recogniser for one stream (one recording being made). The session
 * (live/session.ts) feeds it audio as it arrives and asks it, every LIVE_STEP_MS, what changed.
 * Each stream has its own state; the model behind it is shared by every stream of the worker.
 */
export interface LiveUpdate {
  /** spans whose text is now fixed, oldest first */
  finals: { text: string; startMs: number; endMs: number }[];
  /** the text of the speech after the last final (may still change), or undefined when unchanged */
  partial?: { text: string; startMs: number };
  /**
   * The speech so far does not sound like the stream's language (speech/language-check.ts): what was
   * heard. The session then stops its captions, says so, and charges nothing for them.
   */
  wrongLanguage?: HeardLanguage;
}

export interface LiveStream {
  readonly engine: string;
  /** 16 kHz mono samples in [-1, 1], in order */
  push(samples: Float32Array): void;
  /** decode what arrived since the last call; `flush`: the stream ended, fix every remaining word */
  update(flush: boolean): Promise<LiveUpdate>;
  /** samples held but not yet fixed into a final (bounds the memory of a slow decoder) */
  readonly pendingSamples: number;
  dispose(): void;
}

/** Makes a stream for a new session, or says why this worker cannot (no model for the language). */
export interface LiveEngine {
  readonly name: string;
  /** undefined when it can run here, else the reason (for the page and the log) */
  missing(): string | undefined;
  /** loads the model now, so the first session does not wait for it */
  warm?(): Promise<void>;
  createStream(): LiveStream;
}
