import { WEBHOOK_MANUAL_SENDS_PER_HOUR } from "@yuelu/contracts";
import { type Limiter, spendOrRefuse } from "../../lib/limiter.ts";

/**
 * Counts one test event or re-send asked for by `userId`, refusing it past WEBHOOK_MANUAL_SENDS_PER_HOUR
 * (10003): each queues a delivery that may call the target up to 11 times, so unlimited calls would make
 * this server flood a URL of the caller's choosing. Counted in the shared limiter (Redis when configured),
 * so the limit holds across API replicas, and counted before the endpoint is looked up, so parallel calls
 * cannot all slip under it.
 */
export function spendManualSend(limiter: Limiter, userId: number): Promise<void> {
  return spendOrRefuse(limiter, {
    key: `webhook-send:user:${userId}`,
    limit: WEBHOOK_MANUAL_SENDS_PER_HOUR,
    windowSeconds: 3600,
  });
}
