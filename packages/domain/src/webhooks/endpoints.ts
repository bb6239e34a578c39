import { randomBytes } from "node:crypto";
import {
  StatusCode,
  WEBHOOKS_MAX,
  type WebhookCreateBody,
  type WebhookCreated,
  type WebhookEndpoint,
  type WebhookSecret,
  type WebhookUpdateBody,
} from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { type Tx, transact } from "../transaction.ts";
import { auditOperator, ownerScope, type WebhookOwner } from "./owner.ts";
import { assertWebhookTarget } from "./target.ts";
import { endpointView } from "./views.ts";

/** A user's (or the operators') webhook endpoints (docs/integrators.md "Webhooks"). */

type Ctx = Pick<DomainContext, "db" | "events" | "config">;

/** "whsec_" + base64 of 32 random bytes: the Standard Webhooks secret format its libraries read. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Parallel creates queue here, so each counts the others' endpoints before it compares. */
async function lockOwner(tx: Tx, owner: WebhookOwner): Promise<void> {
  if (owner.kind === "user") await tx.$queryRaw`SELECT id FROM users WHERE id = ${owner.userId}::int FOR UPDATE`;
  else await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints:operator'))`;
}

/** The owner's endpoint, or 30001 (someone else's is not found either). */
async function ownEndpoint(tx: Tx | Ctx["db"], owner: WebhookOwner, id: number) {
  const row = await tx.webhookEndpoint.findFirst({ where: { id, ...ownerScope(owner) } });
  if (!row) throw new AppError(StatusCode.RecordNotFound);
  return row;
}

/**
 * Registers an endpoint; its secret is in this answer (and …/secret). The URL's host must resolve
 * to public addresses only (target.ts); the 11th endpoint of an owner is refused (50007).
 */
export async function createWebhookEndpoint(
  ctx: Ctx,
  owner: WebhookOwner,
  input: WebhookCreateBody,
): Promise<WebhookCreated> {
  // before the transaction: a slow DNS answer must not hold the owner's lock
  await assertWebhookTarget(input.url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  return transact(ctx, async (tx) => {
    await lockOwner(tx, owner);
    const count = await tx.webhookEndpoint.count({ where: ownerScope(owner) });
    if (count >= WEBHOOKS_MAX) throw new AppError(StatusCode.WebhookLimit, { limit: WEBHOOKS_MAX });
    const row = await tx.webhookEndpoint.create({
      data: {
        ...ownerScope(owner),
        url: input.url,
        events: input.events,
        description: input.description,
        secret: newSecret(),
      },
    });
    await auditOperator(tx, owner, {
      action: "webhook.create",
      target: `webhook:${row.id}`,
      after: { url: row.url, events: row.events, description: row.description },
    });
    return { ...endpointView(row), secret: row.secret };
  });
}

export async function listWebhookEndpoints(ctx: Pick<Ctx, "db">, owner: WebhookOwner): Promise<WebhookEndpoint[]> {
  const rows = await ctx.db.webhookEndpoint.findMany({ where: ownerScope(owner), orderBy: { id: "desc" } });
  return rows.map(endpointView);
}

/** Changes the URL (checked again), the events, the description, or switches it on or off. */
export async function updateWebhookEndpoint(
  ctx: Ctx,
  owner: WebhookOwner,
  patch: WebhookUpdateBody,
): Promise<WebhookEndpoint> {
  if (patch.url !== undefined) await assertWebhookTarget(patch.url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  return transact(ctx, async (tx) => {
    const before = await ownEndpoint(tx, owner, patch.id);
    const row = await tx.webhookEndpoint.update({
      where: { id: before.id },
      data: {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: patch.events } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      },
    });
    const shown = (r: typeof row) => ({ url: r.url, events: r.events, description: r.description, enabled: r.enabled });
    await auditOperator(tx, owner, {
      action: "webhook.update",
      target: `webhook:${row.id}`,
      before: shown(before),
      after: shown(row),
    });
    return endpointView(row);
  });
}

/** Deletes an endpoint with its deliveries (pending ones are never sent). */
export async function deleteWebhookEndpoint(ctx: Ctx, owner: WebhookOwner, id: number): Promise<{ id: number }> {
  return transact(ctx, async (tx) => {
    const row = await ownEndpoint(tx, owner, id);
    await tx.webhookEndpoint.delete({ where: { id: row.id } });
    await auditOperator(tx, owner, {
      action: "webhook.delete",
      target: `webhook:${row.id}`,
      before: { url: row.url, events: row.events, description: row.description },
    });
    return { id };
  });
}

/**
 * The signing secret again. It must be kept to sign, so hiding it after creation would only make
 * a lost one unrecoverable; it is shown to the endpoint's owner alone (an operator's look is audited).
 */
export async function webhookSecret(ctx: Ctx, owner: WebhookOwner, id: number): Promise<WebhookSecret> {
  return transact(ctx, async (tx) => {
    const row = await ownEndpoint(tx, owner, id);
    await auditOperator(tx, owner, { action: "webhook.secret", target: `webhook:${row.id}` });
    return { id: row.id, secret: row.secret };
  });
}

export { ownEndpoint as ownWebhookEndpoint };
