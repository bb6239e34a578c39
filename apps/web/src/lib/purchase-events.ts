import { useQueryClient } from "@tanstack/react-query";
import { GoodsType } from "@yuelu/contracts/constants";
import { useEffect } from "react";
import { refreshAfterPurchase } from "./account.ts";

/**
 * Spec §4 Payment order: a paid order raises a success event carrying the goods' duration. The
 * cashier and the /order page announce it; the app shell's listener (useRefreshOnPurchase) refetches
 * what shows the user's balances — the header's member badge and card time, the quota bars, /vip,
 * /personalInfo — and anything else that wants to know (a popup, a hook) subscribes here too.
 */
export interface PurchaseCompleted {
  orderNumber: string;
  goodsId: number;
  goodsType: number;
  /** seconds of transcription time for a duration card, days of membership for a plan */
  duration: number;
}

type Listener = (event: PurchaseCompleted) => void;
const listeners = new Set<Listener>();

export function onPurchaseCompleted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announcePurchase(event: PurchaseCompleted) {
  for (const listener of [...listeners]) listener(event);
}

/** The event of paid goods: a card's seconds, a plan's days. */
export function purchaseOf(
  orderNumber: string,
  goods: { goodsId: number; goodsType: number; duration: number; memberDays: number },
): PurchaseCompleted {
  const duration = goods.goodsType === GoodsType.Membership ? goods.memberDays : goods.duration;
  return { orderNumber, goodsId: goods.goodsId, goodsType: goods.goodsType, duration };
}

/** Mounted once by the app shell: a purchase refetches user info, storage, assets and the orders. */
export function useRefreshOnPurchase() {
  const client = useQueryClient();
  useEffect(() => onPurchaseCompleted(() => refreshAfterPurchase(client)), [client]);
}
