import type { Redis } from "ioredis";

/**
 * Fixed-window counters for rate limits that key on something other than the route (a phone
 * number, a login). Redis when configured, so limits hold across API replicas; memory otherwise.
 */
export interface Limiter {
  /** Counts one hit on `key`; true while the count within `windowSeconds` is at most `limit`. */
  hit(key: string, limit: number, windowSeconds: number): Promise<boolean>;
  /** The hits counted on `key` in its current window (0 when none). */
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

export function redisLimiter(redis: Redis, prefix = "yuelu:limit:"): Limiter {
  return {
    async hit(key, limit, windowSeconds) {
      const k = prefix + key;
      const [[, count]] = (await redis.multi().incr(k).expire(k, windowSeconds, "NX").exec()) as [[null, number]];
      return count <= limit;
    },
    async count(key) {
      return Number((await redis.get(prefix + key)) ?? 0);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

export function memoryLimiter(now: () => number = Date.now): Limiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, limit, windowSeconds) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowSeconds * 1000 };
        windows.set(key, w);
        if (windows.size > 50_000) sweep(windows, t);
      }
      w.count += 1;
      return w.count <= limit;
    },
    async count(key) {
      const w = windows.get(key);
      return w && w.resetAt > now() ? w.count : 0;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

function sweep(windows: Map<string, { resetAt: number }>, t: number) {
  for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
}
