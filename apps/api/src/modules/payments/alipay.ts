import { alipayAmount } from "@yuelu/domain";
import type { Config } from "@yuelu/runtime";
import type { AlipaySdk } from "alipay-sdk";
import { newAlipaySdk } from "./alipay-sdk.ts";
import type { PaymentProvider, ProviderRefund, ProviderTrade, ProviderTradeState } from "./provider.ts";

/**
 * `alipay`: a real merchant account through the official SDK (face-to-face payment: the QR of
 * `alipay.trade.precreate`), the sandbox gateway included. Its notifications reach the same handler
 * as the mock's; polling asks `alipay.trade.query` when one is late; the console refunds through
 * `alipay.trade.refund`.
 */
export class AlipayProvider implements PaymentProvider {
  readonly name = "alipay" as const;
  private readonly sdk: AlipaySdk;

  constructor(private readonly config: Config) {
    // made here, so that a key the SDK refuses stops the start (the module is loaded only on this path)
    this.sdk = newAlipaySdk({
      appId: config.ALIPAY_APP_ID!,
      privateKey: config.ALIPAY_PRIVATE_KEY!,
      alipayPublicKey: config.ALIPAY_PUBLIC_KEY!,
      keyType: config.ALIPAY_KEY_TYPE,
      endpoint: config.ALIPAY_GATEWAY,
      gateway: `${config.ALIPAY_GATEWAY.replace(/\/+$/, "")}/gateway.do`,
      timeout: 10_000,
    });
  }

  async precreate(trade: ProviderTrade): Promise<{ payUrl: string }> {
    const minutes = Math.max(1, Math.ceil((trade.expiresAt.getTime() - Date.now()) / 60_000));
    const result = await this.sdk.exec("alipay.trade.precreate", {
      notifyUrl: trade.notifyUrl,
      bizContent: {
        outTradeNo: trade.outTradeNo,
        totalAmount: alipayAmount(trade.amountFen),
        subject: trade.subject,
        timeoutExpress: `${minutes}m`,
      },
    });
    if (result.code !== "10000" || typeof result.qrCode !== "string") {
      throw new Error(`alipay.trade.precreate answered ${result.code} ${result.subCode ?? ""} ${result.subMsg ?? ""}`);
    }
    return { payUrl: result.qrCode };
  }

  async query(outTradeNo: string): Promise<ProviderTradeState> {
    const result = await this.sdk.exec("alipay.trade.query", { bizContent: { outTradeNo } });
    if (result.code !== "10000") {
      if (result.subCode === "ACQ.TRADE_NOT_EXIST") return { status: "NOT_FOUND" };
      throw new Error(`alipay.trade.query answered ${result.code} ${result.subCode ?? ""} ${result.subMsg ?? ""}`);
    }
    switch (result.tradeStatus) {
      case "WAIT_BUYER_PAY":
        return { status: "WAIT_BUYER_PAY" };
      case "TRADE_SUCCESS":
      case "TRADE_FINISHED":
        return { status: result.tradeStatus, totalAmount: String(result.totalAmount), tradeNo: String(result.tradeNo) };
      default:
        return { status: "TRADE_CLOSED" };
    }
  }

  async refund(refund: ProviderRefund): Promise<void> {
    const result = await this.sdk.exec("alipay.trade.refund", {
      bizContent: {
        outTradeNo: refund.outTradeNo,
        refundAmount: alipayAmount(refund.amountFen),
        outRequestNo: refund.refundRequestNo,
        refundReason: refund.reason.slice(0, 256),
      },
    });
    // fund_change 'N' on a repeated out_request_no is still a success: the refund was made before
    if (result.code !== "10000") {
      throw new Error(`alipay.trade.refund answered ${result.code} ${result.subCode ?? ""} ${result.subMsg ?? ""}`);
    }
  }

  verifyNotification(params: Record<string, string>): boolean {
    return params.app_id === this.config.ALIPAY_APP_ID && this.sdk.checkNotifySignV2(params);
  }
}
