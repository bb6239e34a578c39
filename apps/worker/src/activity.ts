import { QueueName } from "@yuelu/runtime";

/**
 * What this worker process is doing, for `npm start`'s worker child, which goes to sleep (exits, and
 * the launcher starts it again when there is work: launcher/worker-process.ts) once it has been idle
 * long enough. Every job attempt passes through here (metrics.ts wraps every processor).
 */
let running = 0;
let lastActivity = Date.now();
/** whether a job other than upkeep (housekeeping, webhook deliveries) ran since the process started */
let servedUsers = false;

const UPKEEP = new Set<string>([QueueName.Housekeeping, QueueName.Webhooks]);

export function jobStarted(queue: string): void {
  running += 1;
  lastActivity = Date.now();
  if (!UPKEEP.has(queue)) servedUsers = true;
}

export function jobEnded(): void {
  running = Math.max(0, running - 1);
  lastActivity = Date.now();
}

/** Something else kept the worker busy (a live-caption session, a model download). */
export function touched(): void {
  lastActivity = Date.now();
}

export const activity = {
  get running(): number {
    return running;
  },
  /** ms since the last job started or ended (or since the process started) */
  idleMs: (now = Date.now()) => now - lastActivity,
  get servedUsers(): boolean {
    return servedUsers;
  },
};
