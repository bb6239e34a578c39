import type { AdminAuditEntry, AdminAuditQuery, AdminPage } from "@yuelu/contracts";
import { pageWindow } from "@yuelu/contracts";
import type { Db, Prisma } from "@yuelu/db";
import type { Tx } from "../transaction.ts";

/**
 * Who performs an operator action: a signed-in admin in the console (id, phone, address, browser),
 * or the CLI on the server (id null, ip 'cli').
 */
export interface AdminActor {
  id: number | null;
  phone: string;
  ip: string;
  userAgent: string;
}

export const CLI_ACTOR: AdminActor = { id: null, phone: "", ip: "cli", userAgent: "npm run admin" };

export interface AuditEntry {
  /** dotted verb, e.g. 'goods.update' */
  action: string;
  /** what was acted on, e.g. 'goods:101' */
  target?: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

/** JSON the audit column can hold (dates as ISO strings, no undefined). */
function jsonOf(value: unknown): Prisma.InputJsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;
}

/**
 * Appends one row to the audit log. Call it inside the transaction that makes the change, so an
 * action and its audit row commit together or not at all. The table refuses UPDATE and DELETE.
 */
export async function audit(tx: Tx | Db, actor: AdminActor, entry: AuditEntry): Promise<void> {
  await tx.adminAudit.create({
    data: {
      actorId: actor.id,
      actorPhone: actor.phone,
      action: entry.action,
      target: entry.target ?? "",
      before: jsonOf(entry.before),
      after: jsonOf(entry.after),
      reason: entry.reason ?? "",
      ip: actor.ip.slice(0, 100),
      userAgent: actor.userAgent.slice(0, 300),
    },
  });
}

/** The audit log, newest first, filtered by action prefix, target or actor. */
export async function auditLog(db: Db, q: AdminAuditQuery): Promise<AdminPage<AdminAuditEntry>> {
  const where: Prisma.AdminAuditWhereInput = {
    ...(q.action ? { action: { startsWith: q.action } } : {}),
    ...(q.target ? { target: q.target } : {}),
    ...(q.actorId ? { actorId: q.actorId } : {}),
  };
  const [rows, total] = await Promise.all([
    db.adminAudit.findMany({ where, orderBy: [{ createdAt: q.order }, { id: q.order }], ...pageWindow(q) }),
    db.adminAudit.count({ where }),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      before: r.before ?? null,
      after: r.after ?? null,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}
