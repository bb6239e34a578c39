import { createStore, createToggle, useStore } from "./create-store.ts";

/**
 * Dialogs any part of the app may open: the login dialog (header, a page's 'sign in to view'), the
 * reward dialog (the header's rewards button, the sign-in reward after onboarding, the shop's
 * 'earn beans'), the shop and the message centre (the header's beans and ✉), and the cashier (the
 * header's membership badge, the quota bars, /vip, a transcription refused for want of time, the
 * shop's 'buy directly'). The dialogs themselves belong to their features; app/root-shell.tsx
 * renders them (app/engagement-dialogs.tsx the rewards, shop and messages).
 */
export const loginDialog = createToggle();
const rewardToggle = createToggle();
const shopToggle = createToggle();
const messageToggle = createToggle();

/**
 * One modal at a time: opening one of the app's dialogs (rewards, shop, messages, the cashier) closes
 * the others — the shop's 'buy directly' leaves the shop for the cashier, it does not stack on it. The
 * login dialog is the exception: it opens over whatever asked for it and hands back to it.
 */
function closeOthers(keep: unknown) {
  for (const toggle of [rewardToggle, shopToggle, messageToggle]) if (toggle !== keep) toggle.close();
  if (keep !== "cashier") cashierStore.set(null);
}
function exclusive(toggle: ReturnType<typeof createToggle>) {
  const open = () => {
    closeOthers(toggle);
    toggle.open();
  };
  return { ...toggle, open, setOpen: (value: boolean) => (value ? open() : toggle.close()) };
}
export const rewardDialog = exclusive(rewardToggle);
export const shopDialog = exclusive(shopToggle);
export const messageDialog = exclusive(messageToggle);

/** Spec §2 cashier tabs: 'buy membership' and 'buy duration card'. */
export type CashierTab = "membership" | "card";
export const CASHIER_TABS: readonly CashierTab[] = ["membership", "card"];

export interface CashierOptions {
  /** the tabs shown, in this order (default: both) */
  tabs?: readonly CashierTab[];
  /** the tab open first (default: the first shown) */
  defaultTab?: CashierTab;
  /** goods preselected on the tab that sells them (a plan or a duration card) */
  goodsId?: number;
}

/** What the open cashier was asked for; `seq` tells two openings with the same options apart. */
export interface CashierRequest {
  tabs: readonly CashierTab[];
  defaultTab: CashierTab;
  goodsId: number | null;
  seq: number;
}

const cashierStore = createStore<CashierRequest | null>(null);
let cashierSeq = 0;

export function cashierRequest({ tabs, defaultTab, goodsId }: CashierOptions = {}): Omit<CashierRequest, "seq"> {
  const shown = tabs && tabs.length > 0 ? CASHIER_TABS.filter((tab) => tabs.includes(tab)) : CASHIER_TABS;
  return {
    tabs: shown,
    defaultTab: defaultTab && shown.includes(defaultTab) ? defaultTab : (shown[0] ?? "membership"),
    goodsId: goodsId ?? null,
  };
}

export const cashierDialog = {
  open(options?: CashierOptions) {
    closeOthers("cashier");
    cashierSeq += 1;
    cashierStore.set({ ...cashierRequest(options), seq: cashierSeq });
  },
  close: () => cashierStore.set(null),
  /** the open cashier's request, null while it is closed */
  useRequest: () => useStore(cashierStore),
  current: () => cashierStore.get(),
};

/** Opens the cashier: `openCashier({ tabs: ["card"], goodsId: 3 })`. */
export const openCashier = (options?: CashierOptions) => cashierDialog.open(options);

/**
 * Whether one of the app's dialogs is open or asked for (the login dialog, rewards, shop, messages,
 * the cashier) — known before it is drawn, which a look at the page is not.
 */
export function anyAppDialogOpen(): boolean {
  return (
    loginDialog.isOpen() ||
    rewardToggle.isOpen() ||
    shopToggle.isOpen() ||
    messageToggle.isOpen() ||
    cashierStore.get() !== null
  );
}
