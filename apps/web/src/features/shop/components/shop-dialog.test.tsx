import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PayGoods } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cashierDialog, shopDialog } from "@/lib/app-dialogs.ts";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend, shopGoods } from "@/testing/engagement-fixtures.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

const REDEEM = [
  shopGoods({ goodsId: 101, goodsName: "30分钟时长卡", duration: 1800, originalCoin: 300, exchangeCoin: 300 }),
  shopGoods({
    goodsId: 102,
    goodsName: "1小时时长卡",
    duration: 3600,
    originalCoin: 600,
    exchangeCoin: 500,
    discount: true,
  }),
  shopGoods({
    goodsId: 104,
    goodsName: "5小时时长卡",
    duration: 18000,
    originalCoin: 3000,
    exchangeCoin: 2200,
    discount: true,
  }),
];
const CASH: Partial<PayGoods>[] = [
  {
    goodsId: 1,
    goodsName: "1小时时长卡",
    priceFen: 600,
    originalPriceFen: 600,
    currency: "¥",
    duration: 3600,
    goodsType: 0,
  },
  {
    goodsId: 3,
    goodsName: "10小时时长卡",
    priceFen: 4500,
    originalPriceFen: 6000,
    currency: "¥",
    duration: 36000,
    goodsType: 0,
  },
];

function backend(beans = 700) {
  return engagementBackend(
    {
      "POST /api/v1/store/goods_list": () => ({ total: REDEEM.length, list: REDEEM }),
      "GET /api/v1/store/pay_goods_list": () => CASH,
      "POST /api/v1/store/purchase_goods": (call: FakeCall) => {
        const body = call.body as { exchangeAmount: number; coinNumber: number };
        return {
          exchangeAmount: body.exchangeAmount,
          signRewardType: 1,
          signRewardNumber: 1800 * body.exchangeAmount,
          balance: beans - body.coinNumber,
        };
      },
    },
    { beans },
  );
}

async function openShop() {
  act(() => shopDialog.open());
  // (the first opening loads the dialog's code: a stand-in dialog with its title shows meanwhile)
  await screen.findByTestId("redeem-goods-104", {}, { timeout: 5000 });
  const dialog = screen.getByRole("dialog", { name: "悦豆商城" });
  await waitFor(() => expect(within(dialog).getByTestId("shop-balance")).not.toHaveTextContent("–"));
  return dialog;
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  act(() => {
    shopDialog.close();
    cashierDialog.close();
  });
  vi.unstubAllGlobals();
});

describe("the shop dialog", () => {
  it("lists both sections at their unit costs; one unit dearer than the balance is 'not enough beans'", async () => {
    backend(700);
    renderApp("/404");
    const dialog = await openShop();
    expect(within(dialog).getByTestId("shop-balance")).toHaveTextContent("700");
    expect(within(dialog).getByTestId("cash-goods-3")).toHaveTextContent("¥45");
    expect(within(dialog).getByTestId("cash-goods-3")).toHaveTextContent("¥60");
    const discounted = within(dialog).getByTestId("redeem-goods-102");
    expect(within(discounted).getByTestId("goods-cost")).toHaveTextContent("500 悦豆");
    expect(discounted).toHaveTextContent("600");
    expect(discounted).toHaveTextContent("有效期 3 个月");
    expect(within(discounted).getByRole("button", { name: "兑换" })).toBeEnabled();
    const dear = within(within(dialog).getByTestId("redeem-goods-104")).getByTestId("redeem");
    expect(dear).toHaveTextContent("悦豆不足");
    expect(dear).toBeDisabled();
    // the reward images of the spec lengths
    expect(within(dialog).getByTestId("redeem-goods-101").querySelector("svg")).toHaveAttribute("data-tier", "1800");
    expect(within(dialog).getByTestId("cash-goods-3").querySelector("svg")).toHaveAttribute("data-tier", "36000");
  });

  it("the stepper holds an integer from 1 to floor(balance / unit cost); a non-number resets to 1", async () => {
    const api = backend(700);
    renderApp("/404");
    const shop = await openShop();
    await userEvent.click(within(within(shop).getByTestId("redeem-goods-101")).getByTestId("redeem"));
    const confirm = await screen.findByRole("dialog", { name: "确认兑换" });
    const input = within(confirm).getByTestId("quantity-input");
    const plus = within(confirm).getByTestId("quantity-increase");
    const minus = within(confirm).getByTestId("quantity-decrease");
    expect(input).toHaveValue("1");
    expect(minus).toBeDisabled();
    expect(confirm).toHaveTextContent("最多可兑换 2 份");
    await userEvent.click(plus);
    expect(input).toHaveValue("2");
    expect(plus).toBeDisabled(); // floor(700 / 300) = 2
    expect(within(confirm).getByTestId("redeem-total")).toHaveTextContent("600 悦豆");
    expect(within(confirm).getByTestId("redeem-balance-after")).toHaveTextContent("100 悦豆");

    await userEvent.clear(input);
    await userEvent.type(input, "abc");
    await userEvent.tab();
    expect(input).toHaveValue("1");
    expect(within(confirm).getByTestId("redeem-total")).toHaveTextContent("300 悦豆");
    await userEvent.clear(input);
    await userEvent.type(input, "9");
    await userEvent.tab();
    expect(input).toHaveValue("2");
    await userEvent.clear(input);
    await userEvent.type(input, "1.5");
    await userEvent.tab();
    expect(input).toHaveValue("1");

    await userEvent.click(plus);
    await userEvent.click(within(confirm).getByTestId("redeem-confirm"));
    await waitFor(() => expect(api.callsTo("/purchase_goods")).toHaveLength(1));
    expect(api.callsTo("/purchase_goods")[0]!.body).toEqual({
      goodsId: 101,
      exchangeAmount: 2,
      coinNumber: 600,
      userId: 42,
    });
    const popup = await screen.findByTestId("reward-popup");
    expect(within(popup).getByTestId("reward-amount")).toHaveTextContent("1 小时");
    expect(popup).toHaveTextContent("有效期 3 个月");
    // the balances refresh after the exchange
    await waitFor(() => expect(api.callsTo("/get_asset").length).toBeGreaterThan(1));
  });

  it("a discounted goods is charged exchangeCoin, and a refusal is said in the dialog", async () => {
    const api = engagementBackend(
      {
        "POST /api/v1/store/goods_list": () => ({ total: REDEEM.length, list: REDEEM }),
        "GET /api/v1/store/pay_goods_list": () => CASH,
        "POST /api/v1/store/purchase_goods": () =>
          new Response(JSON.stringify({ status_code: 60001, status_msg: "悦豆余额不足", data: null }), {
            headers: { "content-type": "application/json" },
          }),
      },
      { beans: 1000 },
    );
    renderApp("/404");
    const shop = await openShop();
    await userEvent.click(within(within(shop).getByTestId("redeem-goods-102")).getByTestId("redeem"));
    const confirm = await screen.findByRole("dialog", { name: "确认兑换" });
    expect(confirm).toHaveTextContent("最多可兑换 2 份"); // floor(1000 / 500)
    await userEvent.click(within(confirm).getByTestId("redeem-confirm"));
    expect(await within(confirm).findByTestId("redeem-error")).toHaveTextContent("悦豆余额不足");
    expect(api.callsTo("/purchase_goods")[0]!.body).toMatchObject({ exchangeAmount: 1, coinNumber: 500 });
  });

  it("explains beans and shows the rules in popovers", async () => {
    backend();
    renderApp("/404");
    const shop = await openShop();
    await userEvent.click(within(shop).getByTestId("balance-help"));
    expect(await screen.findByTestId("balance-popover")).toHaveTextContent("悦豆不可购买、不会过期、不可提现");
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(await screen.findByRole("dialog", { name: "悦豆商城" })).getByTestId("shop-notes"));
    expect(await screen.findByTestId("notes-popover")).toHaveTextContent("有效期 3 个月");
  });

  it("'buy directly' closes the shop and opens the cashier on that card", async () => {
    backend();
    renderApp("/404");
    const shop = await openShop();
    await userEvent.click(within(within(shop).getByTestId("cash-goods-3")).getByRole("button", { name: "购买" }));
    expect(cashierDialog.current()).toMatchObject({ tabs: ["card"], defaultTab: "card", goodsId: 3 });
    expect(shopDialog.isOpen()).toBe(false);
  });

  it("'view details' closes the shop and opens the bean details; nothing happens when already there", async () => {
    backend();
    const { router } = renderApp("/404");
    let shop = await openShop();
    await userEvent.click(within(shop).getByTestId("shop-details"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/personalInfo"));
    expect(router.state.location.search).toBe("?menu=coinDetail");
    expect(shopDialog.isOpen()).toBe(false);

    shop = await openShop();
    const key = router.state.location.key;
    await userEvent.click(within(shop).getByTestId("shop-details"));
    expect(shopDialog.isOpen()).toBe(true);
    expect(router.state.location.key).toBe(key);
  });
});
