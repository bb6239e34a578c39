import type { CheckPayResult, ExecutePaymentResult, TransferOrder } from "@yuelu/contracts";
import { PAY_AGENT } from "@yuelu/contracts/constants";
import { api } from "@/lib/api-client.ts";

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

/** The user's latest order still open for payment, so a reloaded /order page resumes it. */
export function getTransferOrder() {
  return api<TransferOrder>("/order/get_transfer_order");
}
