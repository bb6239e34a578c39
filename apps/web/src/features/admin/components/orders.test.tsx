import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminOrderDetail } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, orderDetail, page } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

const NUMBER = "YL202611250001";

/** The orders page with one order, whose state the routes below change. */
function ordersBackend(routes: Parameters<typeof engagementBackend>[0] = {}, start = orderDetail()) {
  const state = { order: start };
  const api = engagementBackend({
    "GET /admin/me": () => adminMe(),
    "GET /admin/orders": () => page([state.order]),
    [`GET /admin/orders/${NUMBER}`]: () => state.order,
    ...routes,
  });
  return { api, state };
}

async function openOrder() {
  renderApp("/admin/orders");
  await userEvent.click(await screen.findByRole("button", { name: NUMBER }, { timeout: 5000 }));
  const dialog = await screen.findByRole("dialog", { name: `订单 ${NUMBER}` });
  await within(dialog).findByTestId("order-detail");
  return dialog;
}

describe("refunding an order", () => {
  it("needs a reason, sends it once, and shows the order refunded", async () => {
    let release = () => {};
    const { api, state } = ordersBackend({
      [`POST /admin/orders/${NUMBER}/refund`]: async (call: FakeCall) => {
        await new Promise<void>((r) => {
          release = r;
        });
        const { reason } = call.body as { reason: string };
        state.order = { ...state.order, refundedAt: "2026-11-26T02:00:00.000Z", refundReason: reason };
        return { order: state.order, memberUntilBefore: null, memberUntilAfter: null, cardSecondsRevoked: 0 };
      },
    });
    const dialog = await openOrder();
    expect(within(dialog).getByText("已支付")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByTestId("order-refund"));
    const confirm = await screen.findByRole("dialog", { name: `退款订单 ${NUMBER}？` });
    expect(confirm).toHaveTextContent("¥336.00");

    // no reason: refused here, nothing sent
    await userEvent.click(within(confirm).getByTestId("confirm"));
    expect(within(confirm).getByRole("alert")).toHaveTextContent("请填写原因（至少 2 个字）");
    expect(api.callsTo("/refund")).toHaveLength(0);

    await userEvent.type(within(confirm).getByTestId("reason"), "  用户重复购买  ");
    await userEvent.dblClick(within(confirm).getByTestId("confirm"));
    // while the provider answers: the button says so and takes no second click
    await waitFor(() => expect(within(confirm).getByTestId("confirm")).toHaveTextContent("退款中…"));
    expect(within(confirm).getByTestId("confirm")).toBeDisabled();
    release();

    await waitFor(() => expect(screen.queryByRole("dialog", { name: /^退款订单/ })).not.toBeInTheDocument());
    const refunds = api.callsTo("/refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.body).toEqual({ reason: "用户重复购买" });
    expect(await screen.findByText("已退款", { selector: "[data-sonner-toast] *" })).toBeInTheDocument();
    // the order, read again: refunded, with its reason; no second refund offered
    await waitFor(() => expect(within(dialog).getByText("用户重复购买")).toBeInTheDocument());
    expect(within(dialog).queryByTestId("order-refund")).toBeNull();
    const table = screen.getByTestId("orders-table");
    await waitFor(() => expect(within(table).getByText("已退款")).toBeInTheDocument());
  });

  it("shows the operator the server's refusal (60008) and keeps the dialog to try again", async () => {
    const { api } = ordersBackend({
      [`POST /admin/orders/${NUMBER}/refund`]: () => envelopeError(StatusCode.OrderNotPayable),
    });
    const dialog = await openOrder();
    await userEvent.click(within(dialog).getByTestId("order-refund"));
    const confirm = await screen.findByRole("dialog", { name: `退款订单 ${NUMBER}？` });
    await userEvent.type(within(confirm).getByTestId("reason"), "重复扣款");
    await userEvent.click(within(confirm).getByTestId("confirm"));
    expect(await screen.findByText("订单已关闭或已支付，无法再次支付")).toBeInTheDocument();
    expect(api.callsTo("/refund")).toHaveLength(1);
    // still open, the reason kept, the button usable again
    expect(within(confirm).getByTestId("reason")).toHaveValue("重复扣款");
    await waitFor(() => expect(within(confirm).getByTestId("confirm")).toBeEnabled());
    expect(within(dialog).getByTestId("order-refund")).toBeInTheDocument();
  });

  it("offers no refund for an order that was not paid", async () => {
    ordersBackend({}, orderDetail({ tradeStatus: -1, paidAt: null, grantedAt: null }));
    const dialog = await openOrder();
    expect(within(dialog).queryByTestId("order-refund")).toBeNull();
  });
});

describe("asking the provider again", () => {
  it("sends the order's number, says what the provider answered, and shows the order as it is now", async () => {
    const unpaid: AdminOrderDetail = orderDetail({ tradeStatus: 0, paidAt: null, grantedAt: null });
    const { api, state } = ordersBackend(
      {
        [`POST /admin/orders/${NUMBER}/requery`]: () => {
          state.order = orderDetail({ queriedAt: "2026-11-26T02:00:00.000Z" });
          return { providerStatus: "TRADE_SUCCESS", before: 0, after: 1, granted: true, order: state.order };
        },
      },
      unpaid,
    );
    const dialog = await openOrder();
    expect(within(dialog).getByText("已扫码")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByTestId("order-requery"));
    expect(await screen.findByText("渠道状态 TRADE_SUCCESS：已扫码 → 已支付 · 已补发商品")).toBeInTheDocument();
    expect(api.callsTo("/requery")).toHaveLength(1);
    expect(api.callsTo("/requery")[0]?.method).toBe("POST");
    await waitFor(() => expect(within(dialog).getByText("已支付")).toBeInTheDocument());
    expect(within(dialog).getByTestId("order-refund")).toBeInTheDocument();
  });

  it("shows a failed re-query to the operator", async () => {
    ordersBackend({
      [`POST /admin/orders/${NUMBER}/requery`]: () => envelopeError(StatusCode.SystemError, "支付渠道无响应"),
    });
    const dialog = await openOrder();
    await userEvent.click(within(dialog).getByTestId("order-requery"));
    expect(await screen.findByText("支付渠道无响应")).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByTestId("order-requery")).toBeEnabled());
  });
});
