import { type ExecutePaymentResult, type Lang, StatusCode, toEpochSeconds } from "@yuelu/contracts";
import type { OrderModel } from "@yuelu/db";
import {
  AppError,
  claimProviderQuery,
  closeIfDue,
  createOrder,
  type DomainContext,
  noteProviderState,
  OPEN_TRADE_STATES,
  orderNumberOf,
  ownOrder,
  PaymentMismatch,
  providerOrderNumber,
  reopenOrder,
  savePayUrl,
  settleOrder,
} from "@yuelu/domain";
import { countPayment, type HotSql } from "@yuelu/runtime";
import type { FastifyBaseLogger } from "fastify";
import type { ReadCache } from "../../lib/read-cache.ts";
import { NOTIFY_PATH, type PaymentProvider, type ProviderTradeState } from "./provider.ts";

/** The payment calls (docs/commerce.md): HTTP's and the provider's side; the rules are the domain's. */

export interface PaymentDeps {
  domain: DomainContext;
  /** prepared-statement reads: check_pay_result is polled every 5 s by every open cashier */
  sql: HotSql;
  /** orders as polled, kept for seconds and dropped on every "order.changed" */
  polls: ReadCache<string, PolledOrder | null>;
  provider: PaymentProvider;
  /** the public origin of this install: PUBLIC_URL, or the origin the request came in on */
  origin: string;
  log: FastifyBaseLogger;
  /** provider queries running in this process, by order: a second poller waits for the first one's answer */
  inflight: Map<string, Promise<void>>;
}

/** A polled order asks its provider at most this often (the cashier polls every 5 s, maybe from several devices). */
const QUERY_EVERY_MS = 3000;

/**
 * execute_payment: a new order for the goods, or with `orderNumber` a new QR for that same order
 * (reopened when it had timed out or failed). A paid order answers as it is, with no new QR.
 */
export async function executePayment(
  deps: PaymentDeps,
  userId: number,
  input: { goodsId: number; orderNumber?: string; clientKey?: string },
  lang: Lang,
): Promise<ExecutePaymentResult> {
  const { domain, provider } = deps;
  if (provider.name === "none") throw new AppError(StatusCode.PaymentUnavailable);
  let order: OrderModel;
  if (input.orderNumber) order = await reopenOrder(domain, userId, input.orderNumber, input.goodsId);
  else {
    const placed = await createOrder(domain, userId, input.goodsId, provider.name, input.clientKey);
    // the same cashier opening asked again: its order as it is (its QR, once the first ask has made it)
    if (!placed.created) return answer(await withPayUrl(domain, placed.order));
    countPayment(provider.name, "created");
    order = placed.order;
  }
  if (order.grantedAt) return answer(order);
  const goods = await domain.db.payGoods.findUniqueOrThrow({ where: { goodsId: order.goodsId } });
  const { payUrl } = await provider.precreate({
    outTradeNo: providerOrderNumber(order),
    orderNumber: order.orderNumber,
    amountFen: order.amountFen,
    subject: lang === "en" ? goods.goodsNameEn : goods.goodsName,
    notifyUrl: `${deps.origin}${NOTIFY_PATH}`,
    expiresAt: order.expiresAt,
    origin: deps.origin,
  });
  return answer(await savePayUrl(domain, order.orderNumber, payUrl));
}

/** The order once its QR exists: a parallel ask for the same key may still be making it (a few seconds at most). */
async function withPayUrl(domain: DomainContext, order: OrderModel): Promise<OrderModel> {
  for (let waited = 0; !order.payUrl && !order.grantedAt && waited < 10_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    order = await domain.db.order.findUniqueOrThrow({ where: { orderNumber: order.orderNumber } });
  }
  return order;
}

function answer(order: OrderModel): ExecutePaymentResult {
  return {
    orderNumber: order.orderNumber,
    payUrl: order.payUrl,
    tradeStatus: order.tradeStatus,
    expireTime: toEpochSeconds(order.expiresAt),
  };
}

/**
 * check_pay_result: the order's trade status. An open order past its expiry closes (3); otherwise,
 * at most every few seconds, its provider is asked — so a payment whose notification never arrives
 * is still settled, and a scan shows as 0. Another user's or an unknown order: 60003.
 */
export async function checkPayResult(
  deps: PaymentDeps,
  userId: number,
  input: { goodsId: number; orderNumber: string },
): Promise<{ tradeStatus: number }> {
  const { domain } = deps;
  // The common case — an order polled again within seconds, or already settled — is served from
  // memory or one prepared read.
  const row = await deps.polls.get(input.orderNumber, async () => {
    const [found] = await deps.sql.query<PolledOrder>("order-poll", ORDER_POLL, [input.orderNumber]);
    return found ?? null;
  });
  if (!row || row.user_id !== userId || row.goods_id !== input.goodsId) throw new AppError(StatusCode.OrderNotFound);
  const now = domain.clock.now().getTime();
  const open = OPEN_TRADE_STATES.includes(row.trade_status);
  const due = row.expires_at.getTime() <= now;
  const recentlyAsked = row.queried_at !== null && now - row.queried_at.getTime() < QUERY_EVERY_MS;
  const { orderNumber } = input;
  if (!open || (!due && recentlyAsked && !deps.inflight.has(orderNumber))) return { tradeStatus: row.trade_status };

  // Devices polling the same order get the same answer: in this process the first poller closes the
  // order when it is due or asks the provider (when its period is due, claimQuery: across replicas
  // too), and the others wait for that; the entry is taken before any await, so none slips past it.
  // An order that is not due needs no full read: its polled row names the provider's trade (the
  // fewer round trips, the less a poll that asks waits when many cashiers are open).
  let pending = deps.inflight.get(orderNumber);
  if (!pending) {
    pending = (async () => {
      let order: Pick<OrderModel, "orderNumber" | "attempt" | "tradeStatus">;
      if (due) {
        const expiry = await closeIfDue(domain, await ownOrder(domain, userId, orderNumber, input.goodsId));
        if (expiry.closed) countPayment(expiry.order.provider, "closed");
        order = expiry.order;
      } else order = { orderNumber, attempt: row.attempt, tradeStatus: row.trade_status };
      if (OPEN_TRADE_STATES.includes(order.tradeStatus) && (await claimQuery(deps, orderNumber))) {
        await askProvider(deps, order);
      }
    })().finally(() => deps.inflight.delete(orderNumber));
    deps.inflight.set(orderNumber, pending);
  }
  await pending;
  deps.polls.invalidate(orderNumber); // it was just asked about: the next poll reads the new queriedAt
  const [after] = await deps.sql.query<PolledOrder>("order-poll", ORDER_POLL, [orderNumber]);
  return { tradeStatus: after?.trade_status ?? row.trade_status };
}

export interface PolledOrder {
  user_id: number;
  goods_id: number;
  trade_status: number;
  /** which QR of the order is current: the provider's trade is `<order>-<attempt>` after the first */
  attempt: number;
  expires_at: Date;
  queried_at: Date | null;
}

const ORDER_POLL = `
  SELECT "userId" AS user_id, "goodsId" AS goods_id, "tradeStatus" AS trade_status, attempt,
         "expiresAt" AS expires_at, "queriedAt" AS queried_at
  FROM orders WHERE "orderNumber" = $1`;

/** One poller per order and period asks the provider (a conditional update elects it). */
function claimQuery(deps: PaymentDeps, orderNumber: string): Promise<boolean> {
  return claimProviderQuery(deps.domain, orderNumber, QUERY_EVERY_MS);
}

/**
 * Asks the provider about the order's current trade and applies the answer: paid settles (grants
 * once), scanned and closed are noted. The cashier's poll and the console's re-query both come here.
 * Answers what the provider said, or null when it could not be asked.
 */
export async function askProvider(
  deps: Pick<PaymentDeps, "domain" | "provider" | "log">,
  order: Pick<OrderModel, "orderNumber" | "attempt">,
): Promise<ProviderTradeState | null> {
  const outTradeNo = providerOrderNumber(order);
  let state: ProviderTradeState;
  try {
    state = await deps.provider.query(outTradeNo);
  } catch (err) {
    deps.log.warn({ err, orderNumber: order.orderNumber }, "payment provider query failed");
    return null;
  }
  if (state.status === "TRADE_SUCCESS" || state.status === "TRADE_FINISHED") {
    await settle(deps, {
      providerOrderNo: outTradeNo,
      totalAmount: state.totalAmount,
      providerTradeNo: state.tradeNo,
      status: state.status,
    });
  } else if (state.status === "WAIT_BUYER_PAY") {
    await noteProviderState(deps.domain, order.orderNumber, "scanned");
  } else if (state.status === "TRADE_CLOSED") {
    if (await noteProviderState(deps.domain, order.orderNumber, "closed")) countPayment(deps.provider.name, "failed");
  }
  return state;
}

async function settle(
  deps: Pick<PaymentDeps, "domain" | "log" | "provider">,
  report: Parameters<typeof settleOrder>[1],
): Promise<boolean> {
  try {
    // counted once per order however many reports arrive: only the call that granted says so
    if ((await settleOrder(deps.domain, report)) === "granted") countPayment(deps.provider.name, "paid");
    return true;
  } catch (error) {
    if (!(error instanceof PaymentMismatch)) throw error;
    deps.log.error({ why: error.why, outTradeNo: report.providerOrderNo }, "payment report refused");
    return false;
  }
}

const PAID = new Set(["TRADE_SUCCESS", "TRADE_FINISHED"]);

/**
 * An asynchronous notification (Alipay's format, from either provider). Believed only once its
 * signature and app id check out; then the order must exist and the amount match exactly. A
 * payment settles the order (granting once); a closed trade closes it. Answers "success" when the
 * notification was taken (Alipay then stops resending it), "fail" otherwise.
 */
export async function handleNotification(
  deps: PaymentDeps,
  params: Record<string, string>,
): Promise<"success" | "fail"> {
  if (!deps.provider.verifyNotification(params)) {
    deps.log.warn(
      { outTradeNo: params.out_trade_no, appId: params.app_id },
      "payment notification refused: signature or app id",
    );
    return "fail";
  }
  const { out_trade_no: outTradeNo, trade_status: status, total_amount: amount, trade_no: tradeNo } = params;
  if (!outTradeNo || !status || !amount || !tradeNo) return "fail";
  if (PAID.has(status)) {
    const settled = await settle(deps, {
      providerOrderNo: outTradeNo,
      totalAmount: amount,
      providerTradeNo: tradeNo,
      status: status as "TRADE_SUCCESS" | "TRADE_FINISHED",
    });
    if (!settled) return "fail";
  } else {
    const order = await deps.domain.db.order.findUnique({ where: { orderNumber: orderNumberOf(outTradeNo) } });
    if (!order) return "fail";
    if (status === "TRADE_CLOSED" && (await noteProviderState(deps.domain, order.orderNumber, "closed")))
      countPayment(deps.provider.name, "failed");
  }
  await deps.domain.db.paymentNotification.createMany({
    data: [
      {
        orderNumber: orderNumberOf(outTradeNo),
        notifyId: params.notify_id ?? `${tradeNo}:${status}`,
        tradeStatus: status,
        payload: params,
      },
    ],
    skipDuplicates: true,
  });
  return "success";
}
