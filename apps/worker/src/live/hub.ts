import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import { LIVE_CLIENT_BUFFER_SECONDS, LIVE_RESUME_WINDOW_MS, type LiveLanguage } from "@yuelu/contracts";
import {
  admitLiveSession,
  type DomainContext,
  endLiveSession,
  LIVE_BLOCK_SECONDS,
  LIVE_SESSION_TOUCH_MS,
  type LiveAdmission,
  type LiveEndReason,
  markLiveSessionWaiting,
  resumeLiveSession,
  touchLiveSessions,
} from "@yuelu/domain";
import type { MeterSettings } from "./metering.ts";
import { LIVE_STEP_MS, type LiveLog, LiveSession } from "./session.ts";
import type { LiveEngine } from "./stream.ts";

/** Why admission refused a session (docs/live.md "Metering"). */
export type LiveAdmissionRefusal = Extract<LiveAdmission, { refused: unknown }>["refused"];

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
 * The live sessions of one worker process: each with its own recogniser state over the shared models
 * of `engines`, its LiveSession row (packages/domain/src/live) and its charge. At most `maxSessions`
 * connected at once; sessions waiting for a resume hold no place here, only in their user's count.
 */
export class LiveHub {
  private readonly sessions = new Map<string, LiveSession>();
  /** each session's database writes, in order (a drop then a quick resume must land in that order) */
  private readonly writes = new Map<string, Promise<void>>();
  /** sessions being admitted: they take a place before they exist */
  private opening = 0;
  private readonly toucher: NodeJS.Timeout;
  readonly limiter: Limiter;
  readonly stepMs: number;
  readonly resumeWindowMs: number;
  readonly log: LiveLog;
  readonly meterSettings: MeterSettings;

  constructor(
    private readonly options: {
      workerId: string;
      maxSessions: number;
      /** sessions one user may hold, open or waiting, across every node (LIVE_MAX_PER_USER) */
      maxPerUser: number;
      engines: { en?: LiveEngine; zh?: LiveEngine };
      /** the business rules: sessions' rows and their charges */
      domain: DomainContext;
      log: LiveLog;
      /** seconds a session may decode ahead of real time (LIVE_CATCH_UP_SECONDS) */
      catchUpSeconds?: number;
      blockSeconds?: number;
      stepMs?: number;
      resumeWindowMs?: number;
      touchEveryMs?: number;
      /** decodes at once (default: half the cores, at least 1) */
      concurrency?: number;
    },
  ) {
    this.stepMs = options.stepMs ?? LIVE_STEP_MS;
    this.resumeWindowMs = options.resumeWindowMs ?? LIVE_RESUME_WINDOW_MS;
    this.log = options.log;
    this.limiter = new Limiter(options.concurrency ?? Math.max(1, Math.floor(availableParallelism() / 2)));
    this.meterSettings = {
      domain: options.domain,
      catchUpSeconds: options.catchUpSeconds ?? LIVE_CLIENT_BUFFER_SECONDS,
      blockSeconds: options.blockSeconds ?? LIVE_BLOCK_SECONDS,
      log: options.log,
    };
    this.toucher = setInterval(() => void this.touch(), options.touchEveryMs ?? LIVE_SESSION_TOUCH_MS);
    this.toucher.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Sessions held here (connected, or waiting to be resumed) and being opened: a worker with any does not sleep. */
  get held(): number {
    return this.sessions.size + this.opening;
  }

  /** Sessions with a connection: the ones that take a place (LIVE_MAX_SESSIONS). */
  get connected(): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.connected) count++;
    return count;
  }

  get maxSessions(): number {
    return this.options.maxSessions;
  }

  get maxPerUser(): number {
    return this.options.maxPerUser;
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

  /**
   * A new session: an engine for the language, a place on this worker, then admission (the user's
   * limit across every node, and time left to charge: docs/live.md "Metering").
   */
  async open(
    userId: number,
    language: LiveLanguage,
  ): Promise<LiveSession | { full: true } | { unavailable: string } | { refused: LiveAdmissionRefusal }> {
    const chosen = this.engineFor(language);
    if ("reason" in chosen) return { unavailable: chosen.reason };
    if (this.connected + this.opening >= this.options.maxSessions) return { full: true };
    const id = `${this.options.workerId}.${randomUUID()}`;
    this.opening++;
    let admission: LiveAdmission;
    try {
      admission = await admitLiveSession(this.options.domain, {
        id,
        userId,
        workerId: this.options.workerId,
        language: chosen.language,
        maxPerUser: this.options.maxPerUser,
      });
    } finally {
      this.opening--;
    }
    if ("refused" in admission) return { refused: admission.refused };
    // the model is loaded by the first session (engines/idle.ts): start now, while the first audio arrives
    chosen.engine.warm?.().catch(() => {});
    for (const gone of admission.replaced) this.sessions.get(gone)?.replaced();
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

  /** The session of this id held here (operators' tools and tests read its counts). */
  session(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  /** The session to resume: only its own user's, only while it waits, and only if it has not ended elsewhere. */
  async resume(userId: number, sessionId: string): Promise<LiveSession | undefined> {
    const session = this.sessions.get(sessionId);
    if (!session || session.userId !== userId || session.closed) return undefined;
    await this.writes.get(sessionId);
    const open = await resumeLiveSession(this.options.domain, sessionId, userId);
    if (!open) {
      session.end("replaced");
      return undefined;
    }
    return session.closed ? undefined : session;
  }

  /** Its connection dropped: its row says it waits (the first to give way to its user's new start). */
  waiting(session: LiveSession) {
    this.persist(session.id, () => markLiveSessionWaiting(this.options.domain, session.id));
  }

  /** The session ended here: its row is ended and its charge settled to the audio decoded. */
  forget(session: LiveSession, reason: LiveEndReason) {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    const decodedSeconds = session.decodedSeconds;
    this.persist(session.id, () =>
      endLiveSession(this.options.domain, { id: session.id, reason, decodedSeconds }).then(() => {}),
    );
  }

  /** Ends every session (the worker stops) and waits for their rows. */
  async close() {
    clearInterval(this.toucher);
    for (const session of [...this.sessions.values()]) session.end("closed");
    await this.settled();
  }

  /** Waits for the database writes under way. */
  async settled() {
    while (this.writes.size > 0) await Promise.all([...this.writes.values()]);
  }

  /** Keeps this worker's sessions counted, and drops those that ended elsewhere. */
  private async touch() {
    try {
      const ended = await touchLiveSessions(this.options.domain, [...this.sessions.keys()]);
      for (const id of ended) this.sessions.get(id)?.replaced();
    } catch (error) {
      this.log.error({ err: error }, "live captions: could not refresh the sessions");
    }
  }

  private persist(id: string, write: () => Promise<void>) {
    const next = (this.writes.get(id) ?? Promise.resolve())
      .then(write)
      .catch((error) => this.log.error({ err: error, session: id }, "live captions: could not record a session"))
      .finally(() => {
        if (this.writes.get(id) === next) this.writes.delete(id);
      });
    this.writes.set(id, next);
  }
}
