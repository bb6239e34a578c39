import { useQuery } from "@tanstack/react-query";
import type { CheckPayResult, ExecutePaymentResult, TransferOrder } from "@yuelu/contracts";
import { PAY_AGENT, PAY_POLL_MS } from "@yuelu/contracts/constants";
import { ApiError, api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isFinalTradeStatus } from "../lib/pay-state.ts";

/**
 * ARCHITECTURE §4: a new order for the goods, or — with `orderNumber` — a new QR for that same
 * order (a closed or expired one opens again with a new expiry). Either way the answer's payUrl is
 * what the QR encodes.
 */
export function executePayment(goodsId: number, orderNumber?: string, clientKey?: string) {
  return api<ExecutePaymentResult>("/api/v1/pay/execute_payment", {
    data: {
      goodsId,
      payAgent: PAY_AGENT,
      source: 0,
      ...(orderNumber ? { orderNumber } : {}),
      ...(clientKey ? { clientKey } : {}),
    },
  });
}

/** /order's checkout: places an order for the goods (execute_payment's answer). */
export function placeCheckout(goodsId: number, clientKey?: string) {
  return api<ExecutePaymentResult>("/order/checkout", {
    data: { goodsId, payAgent: PAY_AGENT, source: 0, ...(clientKey ? { clientKey } : {}) },
  });
}

export function checkPayResult(goodsId: number, orderNumber: string) {
  return api<CheckPayResult>("/api/v1/pay/check_pay_result", {
    data: { goodsId, orderNumber, payAgent: PAY_AGENT },
  });
}

/**
 * A paid, finished or closed order will not change; a refusal (60003 order not found…) was toasted
 * and will not change by asking again. A network failure may pass: polling goes on.
 */
function pollsAgain({ data, error }: { data?: CheckPayResult | undefined; error: unknown }): boolean {
  if (error instanceof ApiError && error.kind === "business") return false;
  return !data || !isFinalTradeStatus(data.tradeStatus);
}

/**
 * check_pay_result every PAY_POLL_MS while `order` (a QR of `goodsId`) is payable: none, nothing is
 * asked. The order as issued is the first answer, so the first check comes one interval after the QR
 * (spec §9). Polls in a background tab too: the payer is on the phone meanwhile.
 */
export function usePayResult(goodsId: number | null, order: ExecutePaymentResult | null) {
  const polled = goodsId !== null && order !== null ? { goodsId, order } : null;
  return useQuery({
    queryKey: queryKeys.payResult(goodsId ?? 0, order?.orderNumber ?? "", order?.expireTime ?? 0),
    queryFn: () => checkPayResult(polled!.goodsId, polled!.order.orderNumber),
    enabled: polled !== null,
    initialData: order ? { tradeStatus: order.tradeStatus } : undefined,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => (pollsAgain(query.state) ? PAY_POLL_MS : false),
    refetchIntervalInBackground: true,
  });
}

/** The user's latest order still open for payment, so a reloaded /order page resumes it. */
export function getTransferOrder() {
  return api<TransferOrder>("/order/get_transfer_order");
}
