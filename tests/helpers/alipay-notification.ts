import { signAlipayParams } from "../../apps/api/src/modules/payments/mock-alipay/gateway.ts";

/**
 * What Alipay's servers send when an order is paid: a TRADE_SUCCESS notification in Alipay's format,
 * RSA2-signed with the gateway's key, as an url-encoded body for POST /voice_yuelu/api/v1/pay/notify/alipay.
 * Tests and benches play the provider with it (storms, retries across restarts).
 */
export function tradeSuccessNotification(
  keys: { appId: string; gatewayPrivateKey: string },
  order: { orderNumber: string; totalAmount: string; subject: string },
): string {
  const stamp = (d: Date) => d.toISOString().replace("T", " ").slice(0, 19);
  const now = new Date();
  const params: Record<string, string> = {
    notify_time: stamp(now),
    notify_type: "trade_status_sync",
    notify_id: `test${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
    app_id: keys.appId,
    charset: "utf-8",
    version: "1.0",
    sign_type: "RSA2",
    trade_no: `2026${Date.now()}`,
    out_trade_no: order.orderNumber,
    trade_status: "TRADE_SUCCESS",
    total_amount: order.totalAmount,
    subject: order.subject,
    gmt_create: stamp(now),
    gmt_payment: stamp(now),
  };
  return new URLSearchParams({ ...params, sign: signAlipayParams(params, keys.gatewayPrivateKey) }).toString();
}
