import type { AdminActor } from "../admin/audit.ts";
import { type AuditEntry, audit } from "../admin/audit.ts";
import type { Tx } from "../transaction.ts";

/**
 * Who manages an endpoint: a user (their own endpoints, their own events) or an operator in the
 * console (the operator-wide endpoints, userId null, which receive every user's events; each of
 * their actions is audited in its transaction).
 */
export type WebhookOwner = { kind: "user"; userId: number } | { kind: "operator"; actor: AdminActor };

export function ownerScope(owner: WebhookOwner): { userId: number | null } {
  return { userId: owner.kind === "user" ? owner.userId : null };
}

/** Audits an operator's action; a user's own actions are not audited. */
export async function auditOperator(tx: Tx, owner: WebhookOwner, entry: AuditEntry): Promise<void> {
  if (owner.kind === "operator") await audit(tx, owner.actor, entry);
}
