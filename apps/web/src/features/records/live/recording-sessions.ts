import type { LiveCaptionState } from "./live-client.ts";

/** How long a recording's upload waits to learn its first live session before it starts without one. */
export const LIVE_SESSION_WAIT_MS = 5000;

/**
 * The live-caption sessions of one recording. Its upload names them (`liveSessionId`), so its
 * transcription is not charged again for the seconds the captions already were (docs/live.md
 * "Metering"). An upload that starts with the recording waits for the first one — or for the news
 * that there is none (captions off, refused, unavailable) — a few seconds at most.
 */
export class RecordingLiveSessions {
  private ids: string[] = [];
  private known = false;
  private waiters: (() => void)[] = [];

  /** The captions' latest state (of this recording's captions only). */
  update(state: LiveCaptionState) {
    this.ids = state.sessionIds;
    if (this.ids.length > 0 || (state.status !== "connecting" && state.status !== "reconnecting")) this.settle();
  }

  /** No captions for this recording: nothing to wait for. */
  none() {
    this.settle();
  }

  /** The sessions so far, joined by commas (the upload's field), or undefined when there are none. */
  joined(): string | undefined {
    return this.ids.length > 0 ? this.ids.join(",") : undefined;
  }

  /** The sessions once the first is known, or there is none; after `ms` at most. */
  async soon(ms = LIVE_SESSION_WAIT_MS): Promise<string | undefined> {
    if (!this.known) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.joined();
  }

  private settle() {
    this.known = true;
    for (const wake of this.waiters.splice(0)) wake();
  }
}
