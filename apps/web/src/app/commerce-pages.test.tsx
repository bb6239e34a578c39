import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TradeStatus } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cashierDialog } from "@/lib/app-dialogs.ts";
import { setLang } from "@/lib/i18n.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";

/** A cashier opening's first ask for the goods: with the opening's key (one order however often it asks). */
const firstAsk = (goodsId: number) => ({
  goodsId,
  payAgent: "alipay",
  source: 0,
  clientKey: expect.stringMatching(new RegExp(`:${goodsId}$`)),
});

const CARD = {
  goodsId: 3,
  goodsName: "10小时时长卡",
  price: 45,
  currency: "¥",
  originalPrice: 60,
  duration: 36000,
  goodsType: 0,
  memberDays: 0,
  priceFen: 4500,
  originalPriceFen: 6000,
  discount: true,
  discountLabel: "45",
  savedFen: 0,
  cornerLabel: "",
};
const checkout = {
  goods: CARD,
  quantity: 1,
  goodsAmountFen: 6000,
  discountFen: 1500,
  totalFen: 4500,
  goodsAmount: 60,
  total: 45,
  currency: "¥",
  notes: ["时长卡自购买之日起 1 年内有效。"],
};
const placed = (orderNumber: string) => ({
  orderNumber,
  payUrl: `http://localhost:3000/mock-alipay/pay/${orderNumber}`,
  tradeStatus: TradeStatus.Created,
  expireTime: Math.floor(Date.now() / 1000) + 900,
});
const view = (over: Record<string, unknown>) => ({
  orderNumber: "YL1",
  goodsId: 3,
  goodsName: "10小时时长卡",
  goodsType: 0,
  amount: 45,
  amountFen: 4500,
  currency: "¥",
  tradeStatus: TradeStatus.Created,
  payAgent: "alipay",
  duration: 36000,
  memberDays: 0,
  createTime: 1_735_787_045,
  payTime: 0,
  expireTime: Math.floor(Date.now() / 1000) + 600,
  ...over,
});

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cashierDialog.close();
  vi.unstubAllGlobals();
});

describe("/order", () => {
  it("places a new order through order/checkout and shows the goods, price detail, notes and QR", async () => {
    const api = signedInBackend({
      "GET /order/get_transfer_order": () => ({ order: null }),
      "GET /order/get_checkout": () => checkout,
      "POST /order/checkout": () => placed("YL7"),
    });
    renderApp("/order?goodsId=3");
    expect(await screen.findByTestId("checkout-goods-name")).toHaveTextContent("10小时时长卡");
    expect(screen.getByTestId("price-total")).toHaveTextContent("¥45");
    expect(screen.getByTestId("purchase-notes")).toHaveTextContent("1 年内有效");
    await waitFor(() => expect(screen.getByTestId("pay-qr")).toHaveAttribute("data-order-number", "YL7"));
    expect(api.callsTo("/order/checkout")[0]!.body).toEqual(firstAsk(3));
    expect(api.callsTo("/execute_payment")).toHaveLength(0);
  });

  it("a reload resumes the open order for the goods (get_transfer_order) instead of making another", async () => {
    const api = signedInBackend({
      "GET /order/get_transfer_order": () => ({ order: view({ orderNumber: "YL5" }) }),
      "GET /order/get_checkout": () => checkout,
      "POST /api/v1/pay/execute_payment": (call: FakeCall) =>
        placed((call.body as { orderNumber: string }).orderNumber),
      "POST /order/checkout": () => placed("YL-NEW"),
    });
    renderApp("/order");
    await waitFor(() => expect(screen.getByTestId("pay-qr")).toHaveAttribute("data-order-number", "YL5"));
    expect(api.callsTo("/execute_payment")[0]!.body).toEqual({
      goodsId: 3,
      payAgent: "alipay",
      source: 0,
      orderNumber: "YL5",
    });
    expect(api.callsTo("/order/checkout")).toHaveLength(0);
  });

  it("with no goods and no open order, points to /vip and the time cards", async () => {
    signedInBackend({ "GET /order/get_transfer_order": () => ({ order: null }) });
    renderApp("/order");
    expect(await screen.findByText("还没有选择商品")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "购买时长卡" }));
    expect(cashierDialog.current()).toMatchObject({ defaultTab: "card" });
  });
});

describe("/personalInfo", () => {
  it("lists my orders with their status labels, amounts from fen and a way to pay an open one", async () => {
    const api = signedInBackend({
      "GET /api/v1/store/pay_order_list": () => ({
        total: 23,
        list: [
          view({ orderNumber: "YLA" }),
          view({ orderNumber: "YLB", tradeStatus: TradeStatus.Scanned }),
          view({ orderNumber: "YLC", tradeStatus: TradeStatus.Paid, payTime: 1_735_787_100, amountFen: 3450 }),
          view({ orderNumber: "YLD", tradeStatus: TradeStatus.Finished }),
          view({ orderNumber: "YLE", tradeStatus: TradeStatus.Closed }),
          view({ orderNumber: "YLF", expireTime: 1_000 }),
        ],
      }),
    });
    renderApp("/personalInfo?menu=orders");
    const status = async (n: string) => within(await screen.findByTestId(`order-${n}`)).getByTestId("order-status");
    expect(await status("YLA")).toHaveTextContent("待支付");
    expect(await status("YLB")).toHaveTextContent("待支付（已扫码）");
    expect(await status("YLC")).toHaveTextContent("已支付");
    expect(await status("YLD")).toHaveTextContent("已完成");
    expect(await status("YLE")).toHaveTextContent("已关闭");
    expect(await status("YLF")).toHaveTextContent("已过期");
    expect(screen.getByTestId("order-YLC")).toHaveTextContent("¥34.50");
    expect(within(screen.getByTestId("order-YLA")).getByRole("link", { name: "去支付" })).toHaveAttribute(
      "href",
      "/order?goodsId=3&orderNumber=YLA",
    );
    expect(within(screen.getByTestId("order-YLC")).queryByRole("link", { name: "去支付" })).toBeNull();
    expect(within(screen.getByTestId("order-YLF")).queryByRole("link", { name: "去支付" })).toBeNull();
    expect(screen.getByTestId("page-of")).toHaveTextContent("1 / 3");
    await userEvent.click(screen.getByRole("button", { name: "下一页" }));
    await waitFor(() => expect(api.callsTo("/pay_order_list").at(-1)!.url.searchParams.get("page")).toBe("2"));
  });

  it("shows my time cards with the summary, and keeps the profile and ?menu=coinDetail", async () => {
    signedInBackend({
      "GET /api/v3/user/get_duration_detail": () => ({
        remaining: 10800,
        total: 14400,
        used: 3600,
        expiringSoon: 0,
        nextExpireTime: 1_826_928_135,
        bySource: [{ source: "welcome", sourceName: "新人礼包", remaining: 10800 }],
        isMember: false,
        memberEffectiveTime: 0,
      }),
      "GET /api/v3/user/get_user_duration_card_list": (call: FakeCall) => {
        expect(call.url.searchParams.get("all")).toBe("1");
        return {
          total: 2,
          list: [
            {
              cardId: 1,
              seconds: 10800,
              remaining: 10800,
              source: "welcome",
              sourceName: "新人礼包",
              createTime: 1_795_392_135,
              expireTime: 1_826_928_135,
              expired: false,
            },
            {
              cardId: 2,
              seconds: 3600,
              remaining: 0,
              source: "purchase",
              sourceName: "购买",
              createTime: 1_795_392_135,
              expireTime: 1_826_928_135,
              expired: false,
            },
          ],
        };
      },
    });
    renderApp("/personalInfo?menu=timeCards");
    expect(await screen.findByTestId("duration-remaining")).toHaveTextContent("3 小时");
    expect(screen.getByTestId("duration-used")).toHaveTextContent("1 小时");
    expect(await screen.findByTestId("time-card-1")).toHaveTextContent("有效");
    expect(screen.getByTestId("time-card-2")).toHaveTextContent("已用完");
    await userEvent.click(screen.getByTestId("buy-time-cards"));
    expect(cashierDialog.current()).toMatchObject({ defaultTab: "card" });
    await screen.findByRole("dialog", { name: "收银台" });
    act(() => cashierDialog.close());
    await waitFor(() => expect(document.body.style.pointerEvents).toBe(""));

    await userEvent.click(screen.getByTestId("menu-profile"));
    expect(await screen.findByTestId("profile")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("menu-coinDetail"));
    expect(await screen.findByTestId("section-coinDetail")).toHaveTextContent("悦豆明细");
  });
});

describe("transcription refusals lead to the cashier", () => {
  it("20001 (card time) offers to buy time, 50002 (daily cap) offers membership", async () => {
    signedInBackend({
      "GET /api/v3/audio/all_list": () => ({
        total: 2,
        records: [record({ fileId: 1, fileStatus: 0, progress: 0 }), record({ fileId: 2, fileStatus: 0, progress: 0 })],
      }),
      "POST /api/v2/dictation/audio/dictation_batch": () => ({
        tasks: [
          { fileId: 1, taskId: null, fileStatus: 0, code: 20001, message: "时长不足" },
          { fileId: 2, taskId: null, fileStatus: 0, code: 50002, message: "今日转写额度已用完，请明天再来" },
        ],
      }),
    });
    renderApp("/audio-list");
    await screen.findByTestId("record-1");
    await userEvent.click(screen.getByRole("checkbox", { name: "全选本页" }));
    await userEvent.click(within(screen.getByTestId("batch-bar")).getByRole("button", { name: "转写" }));
    await userEvent.click(await within(await screen.findByRole("dialog")).findByTestId("confirm-transcribe"));
    const cardToast = (await screen.findByText("时长不足")).closest("li")!;
    await userEvent.click(within(cardToast as HTMLElement).getByRole("button", { name: "购买时长" }));
    expect(cashierDialog.current()).toMatchObject({ defaultTab: "card" });
    act(() => cashierDialog.close());
    const capToast = (await screen.findByText("今日转写额度已用完，请明天再来")).closest("li")!;
    await userEvent.click(within(capToast as HTMLElement).getByRole("button", { name: "开通会员" }));
    expect(cashierDialog.current()).toMatchObject({ defaultTab: "membership" });
  });
});
