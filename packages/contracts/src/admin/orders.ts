// Contracts of /voice_yuelu/admin (orders): see docs/admin.md "Orders".
import { z } from "zod";
import { adminPageOf, adminPageQuery, ZAdminReason } from "./common.ts";

const ZIso = z.string();
const ZIsoOrNull = z.string().nullable();

/** A calendar day, 'YYYY-MM-DD' (read in the business time zone, BUSINESS_TZ). */
export const ZAdminDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "invalid format");

/** An order number in the path. */
export const ZAdminOrderParams = z.object({ orderNumber: z.string().trim().min(1).max(64) });
export type AdminOrderParams = z.infer<typeof ZAdminOrderParams>;

export const ADMIN_ORDER_SORTS = ["createdAt", "paidAt", "amountFen"] as const;

/**
 * GET /admin/orders. `tradeStatus` -1 created, 0 scanned, 1 paid, 2 finished, 3 closed; `refunded`
 * true|false; `user`: a user id or phone (exact); `orderNumber`: a prefix; `from`/`to`: days of
 * `createdAt` in the business time zone, both included.
 */
export const ZAdminOrderQuery = adminPageQuery(ADMIN_ORDER_SORTS).extend({
  tradeStatus: z.coerce.number().int().min(-1).max(3).optional(),
  refunded: z.enum(["true", "false"]).optional(),
  user: z
    .string()
    .trim()
    .regex(/^\d{1,11}$/, "must be a number")
    .optional(),
  goodsId: z.coerce.number().int().positive().optional(),
  orderNumber: z.string().trim().max(64).optional(),
  from: ZAdminDay.optional(),
  to: ZAdminDay.optional(),
});
export type AdminOrderQuery = z.infer<typeof ZAdminOrderQuery>;

export const ZAdminOrderRow = z.object({
  orderNumber: z.string(),
  userId: z.number().int(),
  phone: z.string().nullable(),
  goodsId: z.number().int(),
  goodsName: z.string(),
  /** 1 membership plan, 0 duration card */
  goodsType: z.number().int(),
  amountFen: z.number().int(),
  tradeStatus: z.number().int(),
  /** 'mock-alipay' | 'alipay' */
  provider: z.string(),
  providerTradeNo: z.string().nullable(),
  createdAt: ZIso,
  paidAt: ZIsoOrNull,
  grantedAt: ZIsoOrNull,
  closedAt: ZIsoOrNull,
  /** 'expired' | 'failed' | 'cancelled' */
  closeReason: z.string().nullable(),
  refundedAt: ZIsoOrNull,
  refundReason: z.string(),
});
export type AdminOrderRow = z.infer<typeof ZAdminOrderRow>;
export const ZAdminOrderPage = adminPageOf(ZAdminOrderRow);
export type AdminOrderPage = z.infer<typeof ZAdminOrderPage>;

/** A verified payment notification the order received (the audit trail of its grant). */
export const ZAdminPaymentNotification = z.object({
  id: z.number().int(),
  notifyId: z.string(),
  tradeStatus: z.string(),
  /** the notification's fields as received */
  payload: z.unknown(),
  receivedAt: ZIso,
});
export type AdminPaymentNotification = z.infer<typeof ZAdminPaymentNotification>;

export const ZAdminOrderDetail = ZAdminOrderRow.extend({
  /** days of membership (membership plans) */
  memberDays: z.number().int(),
  /** seconds of the duration card (duration cards) */
  duration: z.number().int(),
  attempt: z.number().int(),
  expiresAt: ZIso,
  scannedAt: ZIsoOrNull,
  queriedAt: ZIsoOrNull,
  /** the time card the order granted (duration cards, once paid) */
  card: z
    .object({
      id: z.number().int(),
      seconds: z.number().int(),
      remaining: z.number().int(),
      expiresAt: ZIso,
    })
    .nullable(),
  notifications: z.array(ZAdminPaymentNotification),
});
export type AdminOrderDetail = z.infer<typeof ZAdminOrderDetail>;

// ── asking the provider again ──

/**
 * POST /admin/orders/:orderNumber/requery: the provider is asked about the order's current trade and
 * its answer applied as the cashier's poll applies it (paid: granted once).
 */
export const ZAdminRequeryResult = z.object({
  /** what the provider said: NOT_FOUND | WAIT_BUYER_PAY | TRADE_SUCCESS | TRADE_FINISHED | TRADE_CLOSED */
  providerStatus: z.string(),
  /** the order's tradeStatus before and after */
  before: z.number().int(),
  after: z.number().int(),
  /** true when this call granted the goods */
  granted: z.boolean(),
  order: ZAdminOrderDetail,
});
export type AdminRequeryResult = z.infer<typeof ZAdminRequeryResult>;

// ── refund and revoke ──

/** POST /admin/orders/:orderNumber/refund: refunds a paid order at its provider and revokes what it granted. */
export const ZAdminRefundBody = z.object({ reason: ZAdminReason });
export type AdminRefundBody = z.infer<typeof ZAdminRefundBody>;

export const ZAdminRefundResult = z.object({
  order: ZAdminOrderDetail,
  /** membership plans: the end before and after (never moved before the refund) */
  memberUntilBefore: ZIsoOrNull,
  memberUntilAfter: ZIsoOrNull,
  /** duration cards: the seconds taken off the card it granted (what was left of it) */
  cardSecondsRevoked: z.number().int(),
});
export type AdminRefundResult = z.infer<typeof ZAdminRefundResult>;
