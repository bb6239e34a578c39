import type { Prisma } from "@yuelu/db";
import type { DomainEvent } from "@yuelu/runtime";
import type { DomainContext } from "./context.ts";
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
 * Runs `work` in one transaction and, after it commits, publishes the events it announced — never
 * for a transaction that rolled back, never before the data is visible to whoever reacts. The bus
 * is at-most-once; what must reach the outside at least once (webhooks) is written here, in the
 * same transaction, for every event that warrants it: no rule has to remember to.
 */
export async function transact<T>(
  ctx: Pick<DomainContext, "db" | "events">,
  work: (tx: Tx, after: AfterCommit) => Promise<T>,
): Promise<T> {
  const events: DomainEvent[] = [];
  const result = await ctx.db.$transaction(async (tx) => {
    const value = await work(tx, { publish: (event) => events.push(event) });
    events.push(...(await writeWebhookOutbox(tx, events)));
    return value;
  }, TX_OPTIONS);
  for (const event of events) await ctx.events.publish(event);
  return result;
}

/** Publishes "the user's cached data changed" after a write outside `transact`. */
export function userChanged(ctx: Pick<DomainContext, "events">, userId: number): Promise<void> {
  return ctx.events.publish({ type: "user.changed", userId });
}
