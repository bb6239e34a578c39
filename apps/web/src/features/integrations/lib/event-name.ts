import type { TFunction } from "i18next";

/** An event type in the UI's language ("order.paid" → "订单已支付"); an unknown one as it is. */
export function eventName(t: TFunction, type: string): string {
  return t(`integrations.eventNames.${type.replace(/\./g, "_")}`, { defaultValue: type });
}
