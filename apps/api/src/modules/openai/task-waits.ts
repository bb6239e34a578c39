import type { DomainEvent, EventBus } from "@yuelu/runtime";

/** The task an event says finished: "transcription:<taskId>" or "tts:<taskId>". */
export function finishedTask(event: DomainEvent): string | undefined {
  switch (event.type) {
    case "transcription.done":
    case "transcription.failed":
      return `transcription:${event.taskId}`;
    case "tts.done":
    case "tts.failed":
      return `tts:${event.taskId}`;
    default:
      return undefined;
  }
}

export interface WaitOptions {
  timeoutMs: number;
  /** the client left: stop waiting (the task goes on) */
  signal?: AbortSignal;
  /** how often the database is asked besides the events */
  pollMs?: number;
}

/**
 * Waits for tasks to finish. The worker's `transcription.done` / `tts.done` reaches every API node on
 * the event bus, so an answer leaves as soon as the task is done; the task's row is also read every
 * second, because the bus delivers at most once and a lost event must cost a second, not the answer.
 * One subscription per app: the bus has no unsubscribe.
 */
export class TaskWaits {
  private readonly wakers = new Map<string, Set<() => void>>();

  constructor(events: Pick<EventBus, "subscribe">) {
    events.subscribe((event) => {
      const key = finishedTask(event);
      if (key) for (const wake of this.wakers.get(key) ?? []) wake();
    });
  }

  /** `check()`'s first defined value: read now, on each event for `key`, and every pollMs; undefined on timeout or abort. */
  async until<T>(key: string, check: () => Promise<T | undefined>, options: WaitOptions): Promise<T | undefined> {
    const deadline = Date.now() + options.timeoutMs;
    let woken = false;
    let wakeSleeper = () => {};
    const wake = () => {
      woken = true;
      wakeSleeper();
    };
    const wakers = this.wakers.get(key) ?? new Set();
    this.wakers.set(key, wakers);
    wakers.add(wake);
    options.signal?.addEventListener("abort", wake);
    try {
      for (;;) {
        woken = false;
        const value = await check();
        if (value !== undefined) return value;
        const left = deadline - Date.now();
        if (left <= 0 || options.signal?.aborted) return undefined;
        // an event that came while check() ran is not slept through
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, options.pollMs ?? 1000));
          wakeSleeper = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeSleeper = () => {};
      }
    } finally {
      wakers.delete(wake);
      if (wakers.size === 0) this.wakers.delete(key);
      options.signal?.removeEventListener("abort", wake);
    }
  }
}
