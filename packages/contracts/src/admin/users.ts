// Contracts of /voice_yuelu/admin (users): see docs/admin.md "Users".
import { z } from "zod";
import { adminPageOf, adminPageQuery, ZAdminReason } from "./common.ts";

/** ISO instants travel as strings; null where there is none. */
const ZIso = z.string();
const ZIsoOrNull = z.string().nullable();

/** A user id in the path. */
export const ZAdminUserParams = z.object({ userId: z.coerce.number().int().positive().max(2_147_483_647) });
export type AdminUserParams = z.infer<typeof ZAdminUserParams>;

// ── the users table ──

export const ADMIN_USER_SORTS = ["createdAt", "id", "beanBalance", "lastLoginAt", "memberEffectiveTime"] as const;

/**
 * GET /admin/users. `q`: digits that match a phone (exactly, or as its prefix) or a user id.
 * `status`: 'active' | 'disabled' | 'deleting' (waiting for its deletion).
 */
export const ZAdminUserQuery = adminPageQuery(ADMIN_USER_SORTS).extend({
  q: z.string().trim().max(11).regex(/^\d*$/, "must be a number").optional(),
  role: z.enum(["user", "admin"]).optional(),
  status: z.enum(["active", "disabled", "deleting"]).optional(),
});
export type AdminUserQuery = z.infer<typeof ZAdminUserQuery>;

export const ZAdminUserRow = z.object({
  id: z.number().int(),
  /** null once a deleted account was purged */
  phone: z.string().nullable(),
  nickName: z.string(),
  role: z.enum(["user", "admin"]),
  disabledAt: ZIsoOrNull,
  /** set while the account waits for its deletion (delete_account) */
  deleteRequestedAt: ZIsoOrNull,
  beanBalance: z.number().int(),
  /** the end of the membership (in the past: lapsed); null: never a member */
  memberUntil: ZIsoOrNull,
  isMember: z.boolean(),
  lastLoginAt: ZIsoOrNull,
  createdAt: ZIso,
});
export type AdminUserRow = z.infer<typeof ZAdminUserRow>;
export const ZAdminUserPage = adminPageOf(ZAdminUserRow);
export type AdminUserPage = z.infer<typeof ZAdminUserPage>;

// ── one user ──

export const ZAdminTimeCard = z.object({
  id: z.number().int(),
  seconds: z.number().int(),
  remaining: z.number().int(),
  expiresAt: ZIso,
  expired: z.boolean(),
  /** purchase | redeem | gift | task | welcome | checkin */
  source: z.string(),
  /** what granted it: an order number, a gift code, 'admin:<requestId>'… */
  refId: z.string(),
  createdAt: ZIso,
});
export type AdminTimeCard = z.infer<typeof ZAdminTimeCard>;

/** An operator's grant (membership days, a time card, beans), as recorded. */
export const ZAdminGrant = z.object({
  id: z.number().int(),
  requestId: z.string(),
  userId: z.number().int(),
  actorId: z.number().int().nullable(),
  /** stored kinds: card grants are kept in seconds */
  kind: z.enum(["member_days", "card_seconds", "beans"]),
  amount: z.number().int(),
  reason: z.string(),
  createdAt: ZIso,
});
export type AdminGrant = z.infer<typeof ZAdminGrant>;

export const ZAdminUserOrder = z.object({
  orderNumber: z.string(),
  goodsId: z.number().int(),
  goodsName: z.string(),
  amountFen: z.number().int(),
  tradeStatus: z.number().int(),
  createdAt: ZIso,
  paidAt: ZIsoOrNull,
  refundedAt: ZIsoOrNull,
});
export type AdminUserOrder = z.infer<typeof ZAdminUserOrder>;

export const ZAdminUserDetail = ZAdminUserRow.extend({
  userPhoto: z.string(),
  disabledReason: z.string(),
  inviteCode: z.string(),
  invitedById: z.number().int().nullable(),
  /** signed-in sessions that have not expired */
  sessions: z.number().int(),
  /** the time cards, latest expiry first, at most 100 (expired and used-up ones included) */
  cards: z.array(ZAdminTimeCard),
  /** seconds left on cards that have not expired */
  cardSecondsLeft: z.number().int(),
  /** the latest 20 orders (all of them: GET /admin/orders?userId=) */
  orders: z.array(ZAdminUserOrder),
  orderCount: z.number().int(),
  /** records not purged (the recycle bin included: their files still take room) */
  recordCount: z.number().int(),
  /** bytes of the user's records, speech works and songs */
  storageBytes: z.number().int(),
  voiceCount: z.number().int(),
  /** the latest 20 operator grants */
  grants: z.array(ZAdminGrant),
});
export type AdminUserDetail = z.infer<typeof ZAdminUserDetail>;

// ── the bean ledger of one user ──

export const ZAdminBeanQuery = adminPageQuery(["createdAt"] as const);
export type AdminBeanQuery = z.infer<typeof ZAdminBeanQuery>;
export const ZAdminBeanEntry = z.object({
  id: z.number().int(),
  /** > 0 granted, < 0 spent */
  amount: z.number().int(),
  /** 'checkin', 'task', 'shop', 'gift', 'admin_grant'… */
  reason: z.string(),
  refId: z.string(),
  balanceAfter: z.number().int(),
  createdAt: ZIso,
});
export type AdminBeanEntry = z.infer<typeof ZAdminBeanEntry>;
export const ZAdminBeanPage = adminPageOf(ZAdminBeanEntry);
export type AdminBeanPage = z.infer<typeof ZAdminBeanPage>;

// ── grants ──

/** The client's idempotency key: the same key grants once, however often it arrives. */
export const ZAdminRequestId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8–64 characters of A–Z, a–z, 0–9, _ or -");

/** The most one grant may give (a typo of a zero too many is refused, not granted). */
export const ADMIN_GRANT_MAX = { member_days: 3660, card_minutes: 100_000, beans: 1_000_000 } as const;

/**
 * POST /admin/users/:userId/grants. `kind` member_days (days of membership), card_minutes (a time
 * card of that many minutes, valid `validDays`, default 365) or beans.
 */
export const ZAdminGrantBody = z
  .object({
    requestId: ZAdminRequestId,
    kind: z.enum(["member_days", "card_minutes", "beans"]),
    amount: z.coerce.number().int().min(1).max(ADMIN_GRANT_MAX.beans),
    reason: ZAdminReason,
    validDays: z.coerce.number().int().min(1).max(3660).optional(),
  })
  .superRefine((body, ctx) => {
    const max = ADMIN_GRANT_MAX[body.kind];
    if (body.amount > max) ctx.addIssue({ code: "custom", path: ["amount"], message: `at most ${max}` });
  });
export type AdminGrantBody = z.infer<typeof ZAdminGrantBody>;

export const ZAdminGrantResult = z.object({
  grant: ZAdminGrant,
  /** true when this requestId had granted before: nothing was granted again */
  replayed: z.boolean(),
  /** the user's state after it */
  memberUntil: ZIsoOrNull,
  beanBalance: z.number().int(),
  cardSecondsLeft: z.number().int(),
});
export type AdminGrantResult = z.infer<typeof ZAdminGrantResult>;

// ── disable / enable ──

/** POST /admin/users/:userId/disable and /enable. */
export const ZAdminUserStatusBody = z.object({ reason: ZAdminReason });
export type AdminUserStatusBody = z.infer<typeof ZAdminUserStatusBody>;

export const ZAdminUserStatusResult = z.object({
  id: z.number().int(),
  disabledAt: ZIsoOrNull,
  disabledReason: z.string(),
  /** false: it already was in that state (nothing changed, nothing audited) */
  changed: z.boolean(),
  /** sessions ended by disabling */
  sessionsEnded: z.number().int(),
});
export type AdminUserStatusResult = z.infer<typeof ZAdminUserStatusResult>;
