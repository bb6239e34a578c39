import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PayGoods } from "@yuelu/contracts";
import { PAY_POLL_MS, TradeStatus } from "@yuelu/contracts/constants";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cashierDialog, loginDialog, openCashier } from "@/lib/app-dialogs.ts";
import { setLang } from "@/lib/i18n.ts";
import { onPurchaseCompleted } from "@/lib/purchase-events.ts";
import { envelopeError, type FakeCall, fakeApi, signInCookies } from "@/testing/fake-api.ts";
import { fakeUserInfo } from "@/testing/fake-user.ts";
import { renderApp } from "@/testing/render.tsx";
import { CashierHost } from "./cashier-host.tsx";
import { AppProvider } from "./provider.tsx";

/** A cashier opening's first ask for the goods: with the opening's key (one order however often it asks). */
const firstAsk = (goodsId: number) => ({
  goodsId,
  payAgent: "alipay",
  source: 0,
  clientKey: expect.stringMatching(new RegExp(`:${goodsId}$`)),
});

/** The catalogue as the server answers it (docs/commerce.md): yuan numbers, fen integers, labels. */
const goods = (g: Partial<PayGoods> & Pick<PayGoods, "goodsId" | "goodsName" | "priceFen">): PayGoods => ({
  price: g.priceFen / 100,
  currency: "¥",
  originalPrice: (g.originalPriceFen ?? g.priceFen) / 100,
  originalPriceFen: g.priceFen,
  duration: 0,
  goodsType: 1,
  memberDays: 0,
  discount: false,
  discountLabel: "",
  savedFen: 0,
  cornerLabel: "",
  ...g,
});
const PLANS = [
  goods({ goodsId: 7, goodsName: "月度会员", priceFen: 3450, memberDays: 30 }),
  goods({
    goodsId: 8,
    goodsName: "季度会员",
    priceFen: 8400,
    originalPriceFen: 10350,
    memberDays: 90,
    discount: true,
    discountLabel: "84",
  }),
  goods({
    goodsId: 9,
    goodsName: "年度会员",
    priceFen: 33600,
    originalPriceFen: 41400,
    memberDays: 365,
    discount: true,
    discountLabel: "336",
    savedFen: 7800,
    cornerLabel: "立省¥78",
  }),
];
const CARDS = [
  goods({ goodsId: 1, goodsName: "1小时时长卡", priceFen: 600, goodsType: 0, duration: 3600 }),
  goods({
    goodsId: 3,
    goodsName: "10小时时长卡",
    priceFen: 4500,
    originalPriceFen: 6000,
    goodsType: 0,
    duration: 36000,
    discount: true,
    discountLabel: "45",
  }),
];

/**
 * A fake shop: execute_payment makes orders YL1, YL2… (or re-issues the one named, with a new
 * expiry); check_pay_result answers `shop.tradeStatus`; user info turns member once paid.
 */
function shop({ ttl = 900, refuse = 0, providerless = false } = {}) {
  let made = 0;
  let refusals = refuse;
  const state = { tradeStatus: TradeStatus.Created as number, member: false };
  const api = fakeApi({
    "POST /api/v3/user/delete_account_status": () => ({ status: 0, deleteTime: 0, purgeTime: 0 }),
    "GET /api/v1/user/info": () =>
      fakeUserInfo({ isMember: state.member, memberEffectiveTime: state.member ? 1_900_000_000 : 0 }),
    "GET /api/v1/user/storage_info": () => ({
      timeUsedToday: 0,
      timeLimitToday: 36000,
      timeUsed: 0,
      timeLimit: 0,
      auth: 0,
    }),
    "POST /api/v1/store/get_asset": () => ({ allTimeCard: 0, allCoinNumber: 0 }),
    "POST /notify/get_unread_size": () => ({ unreadSize: 0 }),
    "POST /api/v1/store/sign_info": () => ({ allSignDay: 0, nowMonth: 11, todaySign: true, rewardContentList: [] }),
    "GET /api/v1/store/pay_goods_list": (call: FakeCall) =>
      call.url.searchParams.get("goodsType") === "1" ? PLANS : CARDS,
    "GET /order/get_checkout": (call: FakeCall) => {
      const g = [...PLANS, ...CARDS].find((x) => x.goodsId === Number(call.url.searchParams.get("goodsId")))!;
      return {
        goods: g,
        quantity: 1,
        goodsAmountFen: g.originalPriceFen,
        discountFen: g.originalPriceFen - g.priceFen,
        totalFen: g.priceFen,
        goodsAmount: g.originalPrice,
        total: g.price,
        currency: "¥",
        notes: ["虚拟商品，支付成功后立即到账，不支持退款。"],
      };
    },
    "POST /api/v1/pay/execute_payment": (call: FakeCall) => {
      if (providerless) return envelopeError(60010, "本站尚未开通在线支付，请联系管理员");
      if (refusals-- > 0) return envelopeError(60002, "商品不存在或已下架");
      const body = call.body as { goodsId: number; orderNumber?: string };
      const orderNumber = body.orderNumber ?? `YL${++made}`;
      state.tradeStatus = TradeStatus.Created;
      return {
        orderNumber,
        payUrl: `http://localhost:3000/mock-alipay/pay/${orderNumber}`,
        tradeStatus: TradeStatus.Created,
        expireTime: Math.floor(Date.now() / 1000) + ttl,
      };
    },
    "POST /api/v1/pay/check_pay_result": () => {
      if (state.tradeStatus === TradeStatus.Paid) state.member = true;
      return { tradeStatus: state.tradeStatus };
    },
  });
  const bodies = (path: string) => api.callsTo(path).map((c) => c.body as Record<string, unknown>);
  return { api, state, bodies };
}

function renderCashier() {
  return render(
    <AppProvider>
      <MemoryRouter>
        <CashierHost />
      </MemoryRouter>
    </AppProvider>,
  );
}

/** The QR box's wrapper: its phase and the payUrl it encodes. */
const qr = () => screen.getByTestId("pay-qr");
const poll = () => act(() => vi.advanceTimersByTimeAsync(PAY_POLL_MS));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  setLang("zh");
});
afterEach(() => {
  act(() => cashierDialog.close());
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the cashier's membership tab", () => {
  it("shows three plans, the first selected, with the API's labels, struck prices and the corner", async () => {
    signInCookies();
    const { bodies } = shop();
    renderCashier();
    act(() => openCashier());
    // (the dialog shell shows while the cashier's code loads; the plans come with it)
    await waitFor(() => expect(screen.getAllByRole("radio")).toHaveLength(3));
    expect(screen.getByRole("dialog", { name: "收银台" })).toBeInTheDocument();
    const [monthly, quarterly, annual] = screen.getAllByRole("radio") as HTMLInputElement[];
    expect(monthly!.checked).toBe(true);
    expect(screen.getByTestId("goods-7")).toHaveTextContent("¥34.50");
    expect(within(screen.getByTestId("goods-8")).getByTestId("goods-price")).toHaveTextContent("¥84");
    expect(within(screen.getByTestId("goods-8")).getByTestId("goods-original-price")).toHaveTextContent("¥103.50");
    expect(within(screen.getByTestId("goods-9")).getByTestId("goods-price")).toHaveTextContent("¥336");
    expect(within(screen.getByTestId("goods-9")).getByTestId("goods-original-price")).toHaveTextContent("¥414");
    expect(screen.getAllByTestId("goods-corner")).toHaveLength(1);
    expect(within(screen.getByTestId("goods-9")).getByTestId("goods-corner")).toHaveTextContent("立省¥78");
    expect(within(screen.getByTestId("privileges")).getAllByRole("listitem")).toHaveLength(8);
    expect(screen.getByRole("link", { name: /查看权益对比/ })).toHaveAttribute("href", "/vip");
    expect(screen.getByRole("link", { name: "《会员服务协议》" })).toHaveAttribute(
      "href",
      "/helpDocument?doc=membership",
    );

    // An order for the first plan, then one for each plan picked.
    await waitFor(() => expect(qr()).toHaveAttribute("data-pay-url", "http://localhost:3000/mock-alipay/pay/YL1"));
    expect(bodies("/execute_payment")).toEqual([firstAsk(7)]);
    expect(screen.getByTestId("pay-amount")).toHaveTextContent("¥34.50");
    await userEvent.click(annual!);
    await waitFor(() => expect(qr()).toHaveAttribute("data-order-number", "YL2"));
    expect(bodies("/execute_payment")[1]).toEqual(firstAsk(9));
    expect(screen.getByTestId("pay-amount")).toHaveTextContent("¥336");
    expect(quarterly!.checked).toBe(false);
  });

  it("polls every 5 s: 0 says 'scan succeeded', 1 is success with the days in the event, and the header turns member", async () => {
    signInCookies();
    const { api, state } = shop();
    const events = vi.fn();
    const off = onPurchaseCompleted(events);
    renderApp("/transaudio");
    expect(await screen.findByTestId("member-badge")).toHaveAttribute("data-member", "0");
    act(() => openCashier({ goodsId: 9 }));
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    expect(api.callsTo("/check_pay_result")).toHaveLength(0);

    await poll();
    expect(api.callsTo("/check_pay_result")).toHaveLength(1);
    expect(api.callsTo("/check_pay_result")[0]!.body).toEqual({ goodsId: 9, orderNumber: "YL1", payAgent: "alipay" });
    expect(screen.getByTestId("pay-status")).toHaveTextContent("");

    state.tradeStatus = TradeStatus.Scanned;
    await poll();
    await waitFor(() => expect(screen.getByTestId("pay-status")).toHaveTextContent("扫码成功，请尽快支付"));

    state.tradeStatus = TradeStatus.Paid;
    await poll();
    expect(await screen.findByTestId("pay-success")).toHaveTextContent("支付成功");
    expect(screen.getByTestId("pay-success")).toHaveTextContent("已为你开通 365 天会员");
    expect(events).toHaveBeenCalledExactlyOnceWith({ orderNumber: "YL1", goodsId: 9, goodsType: 1, duration: 365 });
    // User info is fetched again: the header's badge is the member's now.
    await waitFor(() => expect(screen.getByTestId("member-badge")).toHaveAttribute("data-member", "1"));
    expect(screen.getByTestId("member-badge")).toHaveTextContent("会员");

    const checks = api.callsTo("/check_pay_result").length;
    await poll();
    await poll();
    expect(api.callsTo("/check_pay_result")).toHaveLength(checks);
    off();
  });

  it("3 after the expiry: 'order timed out, click to refresh' re-issues the same order, and polling resumes", async () => {
    signInCookies();
    const { api, state, bodies } = shop({ ttl: 30 });
    renderCashier();
    act(() => openCashier());
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    const firstExpiry = Number(qr().getAttribute("data-expire-time"));
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    state.tradeStatus = TradeStatus.Closed;
    await poll();
    const refresh = await screen.findByRole("button", { name: "订单已超时，点击刷新" });
    const checks = api.callsTo("/check_pay_result").length;
    await poll();
    expect(api.callsTo("/check_pay_result")).toHaveLength(checks);

    await userEvent.click(refresh);
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    expect(bodies("/execute_payment").at(-1)).toEqual({
      goodsId: 7,
      payAgent: "alipay",
      source: 0,
      orderNumber: "YL1",
    });
    expect(qr()).toHaveAttribute("data-order-number", "YL1");
    expect(Number(qr().getAttribute("data-expire-time"))).toBeGreaterThan(firstExpiry);
    expect(screen.queryByTestId("qr-mask")).toBeNull();
    await poll();
    expect(api.callsTo("/check_pay_result")).toHaveLength(checks + 1);
  });

  it("3 before the expiry (the payer cancelled): 'payment failed, please pay again', with the same refresh", async () => {
    signInCookies();
    const { state, bodies } = shop();
    renderCashier();
    act(() => openCashier());
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    state.tradeStatus = TradeStatus.Closed;
    await poll();
    await userEvent.click(await screen.findByRole("button", { name: "支付失败，请重新支付" }));
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    expect(bodies("/execute_payment").at(-1)).toMatchObject({ orderNumber: "YL1" });
  });

  it("a refused order (60002) is toasted, and the QR's 'click to retry' asks for a new one", async () => {
    signInCookies();
    const { bodies } = shop({ refuse: 1 });
    renderApp("/transaudio");
    act(() => openCashier());
    expect(await screen.findByText("商品不存在或已下架")).toBeInTheDocument();
    await userEvent.click(await screen.findByRole("button", { name: "二维码获取失败，点击重试" }));
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    expect(bodies("/execute_payment")).toHaveLength(2);
    expect(bodies("/execute_payment")[1]).not.toHaveProperty("orderNumber");
  });

  it("on an install without a payment provider (60010) says payments are not set up, and offers no retry", async () => {
    signInCookies();
    const { bodies } = shop({ providerless: true });
    renderApp("/transaudio");
    act(() => openCashier());
    expect(await screen.findByText("本站尚未开通在线支付，请联系管理员")).toBeInTheDocument();
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "error"));
    const box = within(qr());
    expect(box.getByText("本站尚未开通在线支付")).toBeInTheDocument();
    expect(box.queryByRole("button")).toBeNull();
    expect(bodies("/execute_payment")).toHaveLength(1);
  });

  it("stops polling when the dialog closes", async () => {
    signInCookies();
    const { api } = shop();
    renderCashier();
    act(() => openCashier());
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    await poll();
    expect(api.callsTo("/check_pay_result")).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "关闭" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    await poll();
    await poll();
    expect(api.callsTo("/check_pay_result")).toHaveLength(1);
  });
});

describe("the cashier before sign-in (spec §5)", () => {
  it("shows the plans and the QR masked 'log in to view', makes no order, and the mask opens the login dialog", async () => {
    const { api } = shop();
    renderCashier();
    act(() => openCashier());
    await waitFor(() => expect(screen.getAllByRole("radio")).toHaveLength(3));
    const mask = screen.getByRole("button", { name: "登录后查看" });
    expect(qr()).toHaveAttribute("data-phase", "idle");
    expect(within(qr()).queryByRole("img")).toBeNull();
    await poll();
    expect(api.callsTo("/execute_payment")).toHaveLength(0);
    expect(api.callsTo("/get_checkout")).toHaveLength(0);
    await userEvent.click(mask);
    expect(loginDialog.isOpen()).toBe(true);
    act(() => loginDialog.close());
  });
});

describe("the duration-card tab", () => {
  it("opens alone with a preselected card, its price detail and notes from the checkout", async () => {
    signInCookies();
    const { bodies } = shop();
    renderCashier();
    act(() => openCashier({ tabs: ["card"], goodsId: 3 }));
    const dialog = await screen.findByRole("dialog", { name: "购买时长卡" });
    expect(within(dialog).queryByRole("tablist")).toBeNull();
    await waitFor(() => expect(within(screen.getByTestId("goods-3")).getByRole("radio")).toBeChecked());
    const detail = screen.getByTestId("price-detail");
    await waitFor(() => expect(within(detail).getByTestId("purchase-notes")).toHaveTextContent("不支持退款"));
    expect(detail).toHaveTextContent("商品金额¥60");
    expect(detail).toHaveTextContent("优惠-¥15");
    expect(within(detail).getByTestId("price-total")).toHaveTextContent("¥45");
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    expect(bodies("/execute_payment")).toEqual([firstAsk(3)]);
    // a card is bought under the user agreement, not the membership agreement
    expect(within(dialog).queryByRole("link", { name: "《会员服务协议》" })).toBeNull();
    expect(within(dialog).getByRole("link", { name: "《用户协议》" })).toHaveAttribute(
      "href",
      "/helpDocument?doc=agreement",
    );
  });

  it("a paid card announces its seconds", async () => {
    signInCookies();
    const { state } = shop();
    const events = vi.fn();
    const off = onPurchaseCompleted(events);
    renderCashier();
    act(() => openCashier({ defaultTab: "card" }));
    await waitFor(() => expect(qr()).toHaveAttribute("data-phase", "open"));
    state.tradeStatus = TradeStatus.Finished;
    await poll();
    expect(await screen.findByTestId("pay-success")).toHaveTextContent("1 小时转写时长已到账");
    expect(events).toHaveBeenCalledWith({ orderNumber: "YL1", goodsId: 1, goodsType: 0, duration: 3600 });
    off();
  });
});

describe("entry points", () => {
  it("/vip's buy button opens the cashier on that plan; the header's 'become a member' opens it too", async () => {
    signInCookies();
    const { bodies } = shop();
    renderApp("/vip");
    await userEvent.click(await screen.findByTestId("vip-buy-8"));
    const dialog = await screen.findByRole("dialog", { name: "收银台" });
    await waitFor(() => expect(within(screen.getByTestId("goods-8")).getByRole("radio")).toBeChecked());
    expect(within(dialog).getByRole("tab", { name: "购买会员" })).toHaveAttribute("aria-selected", "true");
    await waitFor(() => expect(bodies("/execute_payment")).toEqual([firstAsk(8)]));
    await userEvent.click(within(dialog).getByRole("button", { name: "关闭" }));

    const badge = await screen.findByTestId("member-badge");
    expect(badge).toHaveAttribute("data-member", "0");
    await userEvent.click(badge);
    expect(await screen.findByRole("dialog", { name: "收银台" })).toBeInTheDocument();
  });
});
