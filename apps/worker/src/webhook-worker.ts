import { DELIVER_WEBHOOK_JOB, type WebhookJob, webhookJobId, ZWebhookJob } from "@yuelu/contracts";
import { type DomainContext, dueWebhookDeliveries } from "@yuelu/domain";
import { type Config, type DomainEvent, type QueueBackend, QueueName } from "@yuelu/runtime";
import { UnrecoverableError } from "bullmq";
import { deliverWebhook } from "./jobs/deliver-webhook.ts";

export interface WebhookWorkerOptions {
  /** deliveries at once per process (they mostly wait on the network) */
  concurrency?: number;
  /** waits between failed attempts (default: about a day, WEBHOOK_RETRY_SCHEDULE_MS) */
  schedule?: readonly number[];
  timeoutMs?: number;
}

export interface WebhookWorkerContext {
  domain: Pick<DomainContext, "db" | "clock">;
  config: Pick<Config, "PUBLIC_URL" | "WEBHOOK_ALLOW_PRIVATE">;
  queues: QueueBackend;
  /** the platform's event bus: its "webhooks.due" notices queue new deliveries at once */
  events?: { subscribe?(handler: (event: DomainEvent) => void): void };
  log: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

/**
 * The "webhooks" queue: job "deliver-webhook" `{deliveryId, attempt}`, one per attempt, its retries
 * ours (the delivery row holds the state; BullMQ only carries the next attempt, delayed). The outbox
 * rows are the truth, so nothing is lost when a job is: a notice on the bus queues new deliveries at
 * once, and `requeueDue` (at start, and from housekeeping) queues whatever is due and held by nobody.
 */
export function startWebhookWorker(ctx: WebhookWorkerContext, options: WebhookWorkerOptions = {}) {
  const { domain, config, queues, log } = ctx;
  const queue = queues.queue<WebhookJob>(QueueName.Webhooks);
  let stopped = false;

  async function enqueue(deliveries: readonly { id: number; attempt: number }[], delayMs = 0): Promise<void> {
    for (const { id, attempt } of deliveries) {
      const jobId = webhookJobId(id, attempt);
      // due now (a re-send): a job that still waits for its retry is moved up, not added beside it
      const existing = delayMs === 0 ? await queue.getJob(jobId) : undefined;
      if (existing && (await existing.isDelayed())) {
        await existing.promote();
        continue;
      }
      await queue.add(
        DELIVER_WEBHOOK_JOB,
        { deliveryId: id, attempt },
        { jobId, delay: delayMs, attempts: 1, removeOnComplete: true, removeOnFail: true },
      );
    }
  }

  const worker = queues.worker<WebhookJob>(
    QueueName.Webhooks,
    async (job) => {
      if (job.name !== DELIVER_WEBHOOK_JOB) throw new UnrecoverableError(`unknown job name ${job.name}`);
      const parsed = ZWebhookJob.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError("invalid webhook job payload");
      const result = await deliverWebhook(domain, parsed.data, {
        publicUrl: config.PUBLIC_URL,
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
        schedule: options.schedule,
        timeoutMs: options.timeoutMs,
      });
      if (result.status === "sent") {
        const { statusCode, error } = result.outcome;
        if (result.next)
          await enqueue([{ id: parsed.data.deliveryId, attempt: result.next.attempt }], result.next.delayMs);
        log.info(
          { ...parsed.data, statusCode, error: error || undefined, nextInMs: result.next?.delayMs },
          "webhook attempt",
        );
      }
      return result.status;
    },
    { concurrency: options.concurrency ?? 10 },
  );
  worker.on("error", (error) => log.error({ err: error }, "webhook worker error"));
  worker.on("failed", (job, error) => log.error({ err: error, jobId: job?.id }, "webhook job failed"));

  ctx.events?.subscribe?.((event) => {
    if (stopped || event.type !== "webhooks.due") return;
    enqueue(event.deliveries).catch((error) => log.error({ err: error }, "could not queue webhook deliveries"));
  });

  /** Queues every due delivery that no worker holds; returns how many. */
  async function requeueDue(): Promise<number> {
    const due = await dueWebhookDeliveries(domain);
    await enqueue(due);
    return due.length;
  }

  return {
    worker,
    requeueDue,
    /** stops hearing notices (closing the queue backend stops the worker itself) */
    stop() {
      stopped = true;
    },
  };
}
