import { StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
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
  /** Takes one hit back (never below 0): an attempt that turned out not to count. */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/** At most `limit` hits on `key` per window of `windowSeconds`. */
export interface Limit {
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one use of `key` and refuses it past its limit (10003, HTTP 429). The hit is taken before the
 * work is done, so parallel calls cannot all read "under the limit" first.
 */
export async function spendOrRefuse(limiter: Limiter, { key, limit, windowSeconds }: Limit): Promise<void> {
  if (!(await limiter.hit(key, limit, windowSeconds))) throw new AppError(StatusCode.TooManyRequests, {}, 429);
}

/**
 * Runs one guess (a gift code, a login) under its limits. Every attempt takes its place in each count
 * *before* anything is looked up — so parallel guesses cannot all read "under the limit" first — and
 * one past a limit is refused (10003, HTTP 429) without being tried. An attempt that turns out not to
 * be a wrong guess (`wasGuess` false: right, or failed for another reason) gives its places back.
 */
export async function withGuessLimits<T>(
  limiter: Limiter,
  limits: readonly Limit[],
  attempt: () => Promise<T>,
  wasGuess: (error: unknown) => boolean,
): Promise<T> {
  for (const limit of limits) await spendOrRefuse(limiter, limit);
  const giveBack = () => Promise.all(limits.map((l) => limiter.undo(l.key)));
  try {
    const result = await attempt();
    await giveBack();
    return result;
  } catch (error) {
    if (!wasGuess(error)) await giveBack();
    throw error;
  }
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
    async undo(key) {
      // DECR only a live count above 0 (an expired window stays gone)
      await redis.eval(
        "local v = tonumber(redis.call('GET', KEYS[1]) or '0') if v > 0 then redis.call('DECR', KEYS[1]) end",
        1,
        prefix + key,
      );
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
    async undo(key) {
      const w = windows.get(key);
      if (w && w.resetAt > now() && w.count > 0) w.count -= 1;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

function sweep(windows: Map<string, { resetAt: number }>, t: number) {
  for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
}
