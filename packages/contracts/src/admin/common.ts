import { z } from "zod";

/**
 * What every admin table shares (docs/admin.md): the server pages, sorts and filters. Query
 * `page` (from 1), `pageSize` (1–100, default 20), `sort` (a column the call names) and `order`;
 * the answer is `{items, total, page, pageSize}`.
 */
export const ADMIN_PAGE_SIZE_MAX = 100;

export const ZAdminPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(20),
  order: z.enum(["asc", "desc"]).default("desc"),
});
export type AdminPageQuery = z.infer<typeof ZAdminPageQuery>;

/** A page query whose `sort` may name one of `columns` (the first is the default). */
export function adminPageQuery<const C extends readonly [string, ...string[]]>(columns: C) {
  return ZAdminPageQuery.extend({ sort: z.enum(columns).default(columns[0]) });
}

export function adminPageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}
export interface AdminPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** `skip`/`take` of a page query. */
export function pageWindow(q: { page: number; pageSize: number }): { skip: number; take: number } {
  return { skip: (q.page - 1) * q.pageSize, take: q.pageSize };
}

/** Why an operator did something that changes a user's assets: required, written to the audit log. */
export const ZAdminReason = z.string().trim().min(2).max(500);

/** ISO instants travel as strings. */
const ZIso = z.string();

// ── who is calling ──

export const ZAdminMe = z.object({
  userId: z.number().int(),
  nickName: z.string(),
  phone: z.string(),
  role: z.literal("admin"),
  version: z.string(),
});
export type AdminMe = z.infer<typeof ZAdminMe>;

// ── the audit log ──

export const ZAdminAuditEntry = z.object({
  id: z.number().int(),
  actorId: z.number().int().nullable(),
  actorPhone: z.string(),
  action: z.string(),
  target: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  reason: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: ZIso,
});
export type AdminAuditEntry = z.infer<typeof ZAdminAuditEntry>;

export const ZAdminAuditQuery = adminPageQuery(["createdAt"] as const).extend({
  action: z.string().max(60).optional(),
  target: z.string().max(80).optional(),
  actorId: z.coerce.number().int().positive().optional(),
});
export type AdminAuditQuery = z.infer<typeof ZAdminAuditQuery>;
