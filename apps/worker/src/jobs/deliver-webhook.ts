import { type AttemptOutcome, claimWebhookDelivery, type DomainContext, recordWebhookAttempt } from "@yuelu/domain";
import { Webhook } from "standardwebhooks";
import { postWebhook } from "../webhooks/post.ts";

/**
 * One attempt of a webhook delivery (docs/integrators.md "Webhooks"): claim it, POST the event signed
 * per Standard Webhooks, record what the receiver said, and name the next attempt when one is due.
 */
export interface DeliverWebhookOptions {
  publicUrl?: string;
  allowPrivate: boolean;
  /** waits between failed attempts (tests shorten them) */
  schedule?: readonly number[];
  timeoutMs?: number;
}

export type DeliverWebhookResult =
  | { status: "skipped" }
  | { status: "sent"; outcome: AttemptOutcome; next: { attempt: number; delayMs: number } | null };

export async function deliverWebhook(
  domain: Pick<DomainContext, "db" | "clock">,
  job: { deliveryId: number; attempt: number },
  options: DeliverWebhookOptions,
): Promise<DeliverWebhookResult> {
  const claimed = await claimWebhookDelivery(domain, job.deliveryId, job.attempt);
  if (!claimed) return { status: "skipped" };
  const body = JSON.stringify(withAbsoluteLinks(claimed.payload, options.publicUrl));
  const sentAt = domain.clock.now();
  const outcome = await postWebhook({
    url: claimed.url,
    body,
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs,
    headers: {
      "content-type": "application/json",
      "user-agent": "Yuelu-Webhooks/1.0",
      "webhook-id": claimed.messageId,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": new Webhook(claimed.secret).sign(claimed.messageId, sentAt, body),
    },
  });
  const next = await recordWebhookAttempt(domain, claimed, outcome, options.schedule);
  return { status: "sent", outcome, next };
}

/**
 * The stored payload's links are paths on this server; receivers get absolute URLs when the
 * operator set PUBLIC_URL. Deterministic, so every attempt sends the same body.
 */
export function withAbsoluteLinks(payload: unknown, publicUrl: string | undefined): unknown {
  const origin = publicUrl?.replace(/\/+$/, "");
  const data = (payload as { data?: { links?: Record<string, string> } })?.data;
  if (!origin || !data?.links) return payload;
  const links = Object.fromEntries(Object.entries(data.links).map(([name, path]) => [name, `${origin}${path}`]));
  return { ...(payload as object), data: { ...data, links } };
}
