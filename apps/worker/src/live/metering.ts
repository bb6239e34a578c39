import { LIVE_SAMPLE_RATE } from "@yuelu/contracts";
import { chargeLiveBlock, type DomainContext } from "@yuelu/domain";

/**
 * Read slack over the pacing limit: a frame carries up to ~2 s (LIVE_FRAME_MAX_BYTES), so the socket
 * stops being read once this much lies past what may be decoded; the frame's tail waits.
 */
export const LIVE_PACE_SLACK_SECONDS = 2;

/** A charge that failed (the database away) is tried again after this long. */
const RETRY_AFTER_FAILURE_MS = 1000;

export interface MeterSettings {
  domain: DomainContext;
  /** seconds a session may decode ahead of real time (LIVE_CATCH_UP_SECONDS) */
  catchUpSeconds: number;
  /** seconds paid per block (LIVE_BLOCK_SECONDS) */
  blockSeconds: number;
  log: { error(obj: unknown, msg?: string): void };
}

export interface PaymentEvents {
  paid(): void;
  refused(code: 50002 | 20001): void;
  /** the session ended elsewhere (a new start of its user replaced it) */
  gone(): void;
}

/**
 * One session's pacing and prepaid blocks (docs/live.md "Metering"). Audio may be decoded only when
 * it is paid and when wall time allows it — real time since the session started plus the catch-up
 * allowance — so a client that sends faster than it speaks gets no more than that, and nothing is
 * ever decoded unpaid.
 */
export class SessionMeter {
  private paidSamples = 0;
  private charging = false;
  /** after a failed charge, not before this (performance.now()) */
  private retryAt = 0;
  private readonly startedAt = performance.now();

  constructor(
    private readonly session: { id: string; userId: number },
    private readonly settings: MeterSettings,
  ) {}

  /** Samples the session may have decoded by now. */
  pacedSamples(): number {
    const seconds = (performance.now() - this.startedAt) / 1000 + this.settings.catchUpSeconds;
    return Math.floor(seconds * LIVE_SAMPLE_RATE);
  }

  /** Past this many samples received, the session's socket is not read until wall time catches up. */
  readLimit(): number {
    return this.pacedSamples() + LIVE_PACE_SLACK_SECONDS * LIVE_SAMPLE_RATE;
  }

  /** How far the decoder may be fed: what arrived, as far as pacing and payment allow. */
  decodeLimit(received: number): number {
    return Math.min(received, this.pacedSamples(), this.paidSamples);
  }

  /**
   * Pays the next block when audio that pacing allows lies past what is paid; one charge at a time.
   * A charge that fails (the database away) is tried again a second later.
   */
  payAhead(received: number, events: PaymentEvents) {
    if (this.charging || performance.now() < this.retryAt) return;
    if (Math.min(received, this.pacedSamples()) <= this.paidSamples) return;
    this.charging = true;
    const { domain, blockSeconds, log } = this.settings;
    chargeLiveBlock(domain, { sessionId: this.session.id, userId: this.session.userId, seconds: blockSeconds }).then(
      (result) => {
        this.charging = false;
        if ("granted" in result) {
          this.paidSamples += result.granted * LIVE_SAMPLE_RATE;
          events.paid();
        } else if ("refused" in result) events.refused(result.refused);
        else events.gone();
      },
      (error) => {
        this.charging = false;
        this.retryAt = performance.now() + RETRY_AFTER_FAILURE_MS;
        log.error({ err: error, session: this.session.id }, "live captions: could not charge a block");
      },
    );
  }
}
