import type { EventBus, QueueBackend } from "@yuelu/runtime";
import { QueueName } from "@yuelu/runtime";
import type { Queue } from "bullmq";

/**
 * What wakes `npm start`'s sleeping worker child (worker-process.ts), besides a live-caption session:
 * - a job queued by this process (the API): the queues' `add`/`addBulk` wake it first;
 * - a job due in the queues — a retry's backoff ending, the housekeeping every 10 minutes, a job another
 *   process (the operators' CLI) queued, one a killed worker left active — looked for every POLL_MS;
 * - webhook deliveries written (the worker queues them as it hears of them).
 */
const POLL_MS = 10_000;

/** The queue backend, its queues' `add` and `addBulk` waking the worker first. */
export function wakingQueues(queues: QueueBackend, wake: (reason: string) => void): QueueBackend {
  const wrapped = new Map<string, Queue>();
  return {
    kind: queues.kind,
    worker: (name, processor, opts) => queues.worker(name, processor, opts),
    close: () => queues.close(),
    queue<T>(name: QueueName) {
      let queue = wrapped.get(name);
      if (!queue) {
        const inner = queues.queue(name);
        queue = new Proxy(inner, {
          get(target, property) {
            const value = Reflect.get(target, property, target);
            if (typeof value !== "function") return value;
            if (property === "add" || property === "addBulk") {
              return (...args: unknown[]) => {
                wake(`a ${name} job`);
                return value.apply(target, args);
              };
            }
            return value.bind(target);
          },
        });
        wrapped.set(name, queue);
      }
      return queue as Queue<T>;
    },
  };
}

/** Looks for due work while the worker sleeps; answers `stop`. */
export function watchForWork(options: {
  queues: QueueBackend;
  events: EventBus;
  asleep: () => boolean;
  wake: (reason: string) => void;
  onError: (error: unknown) => void;
}): () => void {
  const { queues, wake } = options;
  let polling = false;
  const poll = async () => {
    if (polling || !options.asleep()) return;
    polling = true;
    try {
      const soon = Date.now() + POLL_MS;
      for (const name of Object.values(QueueName)) {
        const queue = queues.queue(name);
        const counts = await queue.getJobCounts("wait", "prioritized", "active", "waiting-children");
        if (Object.values(counts).some((n) => n > 0)) return wake(`a ${name} job waiting`);
        const [next] = await queue.getDelayed(0, 0);
        if (next && next.timestamp + (next.delay ?? 0) <= soon) return wake(`a ${name} job due`);
      }
    } catch (error) {
      options.onError(error);
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll(), POLL_MS);
  timer.unref();
  options.events.subscribe((event) => {
    if (event.type === "webhooks.due" && options.asleep()) wake("webhook deliveries");
  });
  return () => clearInterval(timer);
}
