import type { TFunction } from "i18next";

/** An event type in the console's language ("order.paid" → "订单已支付"); an unknown one as it is. */
export function webhookEventName(t: TFunction, type: string): string {
  return t(`admin.webhooks.eventNames.${type.replace(/\./g, "_")}`, { defaultValue: type });
}

/** What the page can check of a URL before the server judges where it points (no private addresses). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The tag tone of a delivery's status. */
export const DELIVERY_TONES = { pending: "brand", delivered: "ok", failed: "off" } as const;
