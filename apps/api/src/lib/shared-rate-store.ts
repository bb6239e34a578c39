import type { Redis } from "ioredis";

/**
 * A @fastify/rate-limit store that every API replica shares through Redis without a Redis round trip
 * per request: each replica counts in memory and, every `flushMs`, adds what it counted to Redis in one
 * pipeline (INCRBY, PEXPIRE NX for a fixed window, PTTL), reading back the installation-wide count. A
 * key's count is that last total plus what this replica counted since. So a client spread over several
 * replicas is refused once their sum passes the limit, give or take one flush interval of requests —
 * plenty for a flood guard — and the hot path stays in memory (a round trip per request cost a quarter
 * of user/info's throughput: bench/README.md). When Redis is unreachable the local counts still limit.
 */

interface Entry {
  /** the installation-wide count Redis last reported (this replica's flushed counts included) */
  total: number;
  /** counted here, not yet added to Redis */
  pending: number;
  /** when the window ends (ms since the epoch) */
  endsAt: number;
  window: number;
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export function sharedRateStore(redis: Redis, nameSpace: string, flushMs = 200) {
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
      for (const [key, entry, count] of batch) {
        pipeline
          .incrby(nameSpace + key, count)
          .pexpire(nameSpace + key, entry.window, "NX")
          .pttl(nameSpace + key);
      }
      const answers = (await pipeline.exec()) ?? [];
      batch.forEach(([, entry, count], i) => {
        const total = answers[i * 3]?.[1];
        const ttl = answers[i * 3 + 2]?.[1];
        if (typeof total !== "number" || typeof ttl !== "number") return;
        entry.total = total;
        entry.pending -= count;
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

  class SharedRateStore {
    incr(key: string, callback: Callback, timeWindow: number) {
      const now = Date.now();
      let entry = entries.get(key);
      if (!entry || entry.endsAt <= now) {
        entry = { total: 0, pending: 0, endsAt: now + timeWindow, window: timeWindow };
        entries.set(key, entry);
      }
      entry.pending += 1;
      callback(null, { current: entry.total + entry.pending, ttl: entry.endsAt - now });
    }

    read(key: string, callback: Callback) {
      const entry = entries.get(key);
      const now = Date.now();
      if (!entry || entry.endsAt <= now) callback(null, { current: 0, ttl: 0 });
      else callback(null, { current: entry.total + entry.pending, ttl: entry.endsAt - now });
    }

    child() {
      return new SharedRateStore();
    }
  }

  return {
    Store: SharedRateStore,
    /** adds what is still counted here to Redis, and stops */
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
