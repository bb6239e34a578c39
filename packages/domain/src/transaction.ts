import type { Prisma } from "@yuelu/db";
import type { DomainEvent } from "@yuelu/runtime";
import type { DomainContext } from "./context.ts";
import { indexChangedRecords } from "./search/index-record.ts";
import { writeWebhookOutbox } from "./webhooks/outbox.ts";

/** The client inside a transaction: rules that must commit together with their cause take one. */
export type Tx = Prisma.TransactionClient;

/** Collects the events a transaction causes; they are published only once it has committed. */
export interface AfterCommit {
  publish(event: DomainEvent): void;
}

/** Interactive transactions may queue behind a row lock under parallel calls: allow for it. */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * What must commit with a change, whatever rule made it: handlers keyed by the events they react to,
 * run inside the transaction after the rule's work, in this order. The search index is rewritten for
 * every record whose transcript or name changed, so search finds an edit the moment it commits; the
 * webhook outbox gets a delivery for every event integrators subscribe to (at least once, surviving
 * restarts). A handler may announce more events (the outbox's notices to the workers).
 */
interface InTransactionHandler {
  /** the event types it reacts to; absent: every event */
  handles?: ReadonlySet<DomainEvent["type"]>;
  run(tx: Tx, events: DomainEvent[]): Promise<DomainEvent[] | undefined>;
}

const IN_TRANSACTION: InTransactionHandler[] = [
  {
    handles: new Set(["transcript.changed", "record.changed"]),
    run: async (tx, events) => {
      await indexChangedRecords(tx, events);
      return undefined;
    },
  },
  // which events integrators hear of is the outbox's own table (webhooks/events.ts)
  { run: writeWebhookOutbox },
];

/**
 * Runs `work` in one transaction, then the in-transaction handlers of the events it announced, and,
 * after it commits, publishes those events — never for a transaction that rolled back, never before
 * the data is visible to whoever reacts. The bus is at-most-once; what must reach the outside at
 * least once (webhooks) or be true the moment the change is (the search index) is a handler: no rule
 * has to remember it.
 */
export async function transact<T>(
  ctx: Pick<DomainContext, "db" | "events">,
  work: (tx: Tx, after: AfterCommit) => Promise<T>,
): Promise<T> {
  const events: DomainEvent[] = [];
  const result = await ctx.db.$transaction(async (tx) => {
    const value = await work(tx, { publish: (event) => events.push(event) });
    await runInTransaction(tx, events);
    return value;
  }, TX_OPTIONS);
  for (const event of events) await ctx.events.publish(event);
  return result;
}

async function runInTransaction(tx: Tx, events: DomainEvent[]): Promise<void> {
  const announced = [...events];
  for (const handler of IN_TRANSACTION) {
    const { handles } = handler;
    const mine = handles ? announced.filter((e) => handles.has(e.type)) : announced;
    if (mine.length === 0) continue;
    const more = await handler.run(tx, mine);
    if (more) events.push(...more);
  }
}

/** Publishes "the user's cached data changed" after a write outside `transact`. */
export function userChanged(ctx: Pick<DomainContext, "events">, userId: number): Promise<void> {
  return ctx.events.publish({ type: "user.changed", userId });
}
