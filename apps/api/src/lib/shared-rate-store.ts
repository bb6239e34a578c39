import type { Redis } from "ioredis";

/**
 * The flood guard's counters (plugins/rate-limit.ts): requests per key in a fixed window, counted in
 * this process's memory — the hot path never waits for Redis.
 *
 * With Redis, every API replica shares them without a round trip per request: each replica counts in
 * memory and, every `flushMs`, adds what it counted to Redis in one pipeline (INCRBY, PEXPIRE NX for a
 * fixed window, PTTL), reading back the installation-wide count. A key's count is that last total plus
 * what this replica counted since. So a client spread over several replicas is refused once their sum
 * passes the limit, give or take one flush interval of requests — plenty for a flood guard — and the
 * hot path stays in memory (a round trip per request cost a quarter of user/info's throughput:
 * bench/README.md). When Redis is unreachable the local counts still limit.
 */
export interface RateCounter {
  /** Counts one request of `key`: its count in the current window (this one included) and the ms left of it. */
  hit(key: string, windowMs: number): { count: number; resetInMs: number };
  /** Adds what is still counted here to Redis (when shared), and stops. */
  close(): Promise<void>;
}

interface Entry {
  /** the installation-wide count Redis last reported (this replica's flushed counts included); 0 alone */
  total: number;
  /** counted here, not yet added to Redis (alone: everything counted) */
  pending: number;
  /** when the window ends (ms since the epoch) */
  endsAt: number;
  window: number;
}

/** Counters of this process alone (no Redis): ended windows are dropped once a window. */
export function localRateCounter(sweepMs = 60_000): RateCounter {
  const entries = new Map<string, Entry>();
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.endsAt <= now) entries.delete(key);
  }, sweepMs);
  timer.unref();
  return {
    hit: (key, windowMs) => count(entries, key, windowMs),
    async close() {
      clearInterval(timer);
    },
  };
}

/** Counters shared by every replica through Redis (see above), flushed every `flushMs`. */
export function sharedRateCounter(redis: Redis, nameSpace: string, flushMs = 200): RateCounter {
  const entries = new Map<string, Entry>();
  let flushing = false;

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      const now = Date.now();
      const batch: [string, Entry, number][] = [];
      for (const [key, entry] of entries) {
        if (entry.pending > 0) batch.push([key, entry, entry.pending]);
        else if (entry.endsAt <= now) entries.delete(key);
      }
      if (batch.length === 0 || redis.status !== "ready") return;
      const pipeline = redis.pipeline();
      for (const [key, entry, counted] of batch) {
        pipeline
          .incrby(nameSpace + key, counted)
          .pexpire(nameSpace + key, entry.window, "NX")
          .pttl(nameSpace + key);
      }
      const answers = (await pipeline.exec()) ?? [];
      batch.forEach(([, entry, counted], i) => {
        const total = answers[i * 3]?.[1];
        const ttl = answers[i * 3 + 2]?.[1];
        if (typeof total !== "number" || typeof ttl !== "number") return;
        entry.total = total;
        entry.pending -= counted;
        if (ttl > 0) entry.endsAt = Date.now() + ttl;
      });
    } catch {
      // Redis is away: the counts stay local and are added on a later flush
    } finally {
      flushing = false;
    }
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();
  return {
    hit: (key, windowMs) => count(entries, key, windowMs),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

function count(entries: Map<string, Entry>, key: string, windowMs: number): { count: number; resetInMs: number } {
  const now = Date.now();
  let entry = entries.get(key);
  if (!entry || entry.endsAt <= now) {
    entry = { total: 0, pending: 0, endsAt: now + windowMs, window: windowMs };
    entries.set(key, entry);
  }
  entry.pending += 1;
  return { count: entry.total + entry.pending, resetInMs: entry.endsAt - now };
}
