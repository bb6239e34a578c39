import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminGiftCode, AdminGiftRedemption } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, giftCode, page } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

/** 23 redemptions of code 5, newest first: users 100..122. */
const REDEMPTIONS: AdminGiftRedemption[] = Array.from({ length: 23 }, (_, i) => ({
  userId: 122 - i,
  phone: i === 0 ? "" : `1380000${String(122 - i).padStart(4, "0")}`,
  nickName: `用户${122 - i}`,
  redeemedAt: new Date(Date.UTC(2026, 10, 25, 8, 0) - i * 60_000).toISOString(),
}));

function giftsBackend({ disable }: { disable?: (call: FakeCall) => unknown } = {}) {
  const state: { codes: AdminGiftCode[] } = {
    codes: [
      giftCode({ id: 5, packCode: "SP****05", maxRedemptions: 100, redeemedCount: 23 }),
      giftCode({ id: 6, packCode: "SP****06" }),
    ],
  };
  const api = engagementBackend({
    "GET /admin/me": () => adminMe(),
    "GET /admin/gift-codes/batches": () => page([]),
    "GET /admin/gift-codes": () => page(state.codes),
    "GET /admin/gift-codes/5/redemptions": (call: FakeCall) => {
      const p = Number(call.url.searchParams.get("page"));
      const size = Number(call.url.searchParams.get("pageSize"));
      const order = call.url.searchParams.get("order");
      const rows = order === "asc" ? [...REDEMPTIONS].reverse() : REDEMPTIONS;
      return { items: rows.slice((p - 1) * size, p * size), total: rows.length, page: p, pageSize: size };
    },
    "POST /admin/gift-codes/6/disable":
      disable ??
      ((call: FakeCall) => {
        const { disabled } = call.body as { disabled: boolean };
        state.codes = state.codes.map((c) =>
          c.id === 6
            ? {
                ...c,
                disabledAt: disabled ? "2026-11-26T02:00:00.000Z" : null,
                status: disabled ? "disabled" : "active",
              }
            : c,
        );
        return { changed: 1 };
      }),
    "GET /admin/users/100": () => envelopeError(StatusCode.RecordNotFound),
  });
  return { api, state };
}

const codeRow = async (id: number) => screen.findByTestId(`code-${id}`, {}, { timeout: 5000 });
const params = (call: FakeCall | undefined) =>
  Object.fromEntries([...(call?.url.searchParams ?? [])].filter(([k]) => k !== "timeStamp"));

describe("disabling a gift code", () => {
  it("asks first, sends disabled: true, shows it disabled; enabling again sends disabled: false", async () => {
    const { api } = giftsBackend();
    renderApp("/admin/gifts");
    let row = await codeRow(6);
    expect(within(row).getByText("可用")).toBeInTheDocument();
    await userEvent.click(within(row).getByRole("button", { name: "停用" }));
    const confirm = await screen.findByRole("dialog", { name: "停用礼包码 SP****06？" });
    await userEvent.click(within(confirm).getByRole("button", { name: "取消" }));
    expect(api.callsTo("/disable")).toHaveLength(0);

    await userEvent.click(within(row).getByRole("button", { name: "停用" }));
    await userEvent.dblClick(within(await screen.findByRole("dialog", { name: /^停用礼包码/ })).getByTestId("confirm"));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo("/gift-codes/6/disable").map((c) => c.body)).toEqual([{ disabled: true }]);
    expect(await screen.findByText("已停用 1 个礼包码")).toBeInTheDocument();
    row = await codeRow(6);
    await waitFor(() => expect(within(row).getByText("已停用")).toBeInTheDocument());

    await userEvent.click(within(row).getByRole("button", { name: "启用" }));
    await waitFor(() => expect(api.callsTo("/gift-codes/6/disable")).toHaveLength(2));
    expect(api.callsTo("/gift-codes/6/disable")[1]?.body).toEqual({ disabled: false });
    await waitFor(() => expect(within(row).getByText("可用")).toBeInTheDocument());
  });

  it("shows the server's refusal and leaves the code as it was", async () => {
    giftsBackend({ disable: () => envelopeError(StatusCode.RecordNotFound) });
    renderApp("/admin/gifts");
    const row = await codeRow(6);
    await userEvent.click(within(row).getByRole("button", { name: "停用" }));
    await userEvent.click(within(await screen.findByRole("dialog", { name: /^停用礼包码/ })).getByTestId("confirm"));
    expect(await screen.findByText("记录不存在")).toBeInTheDocument();
    expect(within(row).getByText("可用")).toBeInTheDocument();
  });
});

describe("who redeemed a code", () => {
  it("lists the users and times, paged and ordered by the server; a user links to their page", async () => {
    const { api } = giftsBackend();
    renderApp("/admin/gifts");
    // a code nobody redeemed offers no list
    expect(within(await codeRow(6)).queryByRole("button", { name: "兑换记录" })).toBeNull();
    await userEvent.click(within(await codeRow(5)).getByRole("button", { name: "兑换记录" }));
    const dialog = await screen.findByRole("dialog", { name: "礼包码 SP****05 的兑换记录" });
    expect(dialog).toHaveTextContent("23 / 100");
    const table = await within(dialog).findByTestId("redemptions-table");
    const calls = () => api.callsTo("/gift-codes/5/redemptions");
    expect(params(calls()[0])).toEqual({ page: "1", pageSize: "10", sort: "redeemedAt", order: "desc" });

    const first = within(table).getByTestId("redemption-122");
    expect(within(first).getByRole("link", { name: "#122" })).toHaveAttribute("href", "/admin/users/122");
    expect(first).toHaveTextContent("—"); // no phone
    expect(first).toHaveTextContent("用户122");
    const second = within(table).getByTestId("redemption-121");
    expect(second).toHaveTextContent("13800000121");
    expect(within(table).getAllByRole("row")).toHaveLength(11); // the header and 10
    expect(within(dialog).getByTestId("pager-total")).toHaveTextContent("共 23 条");

    await userEvent.click(within(dialog).getByRole("button", { name: "下一页" }));
    await within(dialog).findByTestId("redemption-112");
    expect(params(calls().at(-1))).toMatchObject({ page: "2", pageSize: "10" });
    await userEvent.click(within(dialog).getByRole("button", { name: "下一页" }));
    await within(dialog).findByTestId("redemption-100");
    expect(within(dialog).getByTestId("pager-position")).toHaveTextContent("第 3 / 3 页");

    // oldest first, from page 1
    await userEvent.click(within(dialog).getByRole("button", { name: /兑换时间/ }));
    await waitFor(() => expect(params(calls().at(-1))).toMatchObject({ page: "1", order: "asc" }));
    expect(await within(dialog).findByTestId("redemption-100")).toBeInTheDocument();
    expect(within(dialog).getByRole("columnheader", { name: /兑换时间/ })).toHaveAttribute("aria-sort", "ascending");

    // a user opens their page, closing the list
    await userEvent.click(within(dialog).getByRole("link", { name: "#100" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await screen.findByTestId("admin-user", {}, { timeout: 5000 });
  });

  it("says so when the list is empty", async () => {
    const api = engagementBackend({
      "GET /admin/me": () => adminMe(),
      "GET /admin/gift-codes/batches": () => page([]),
      "GET /admin/gift-codes": () => page([giftCode({ id: 5, packCode: "SP****05", redeemedCount: 1 })]),
      "GET /admin/gift-codes/5/redemptions": () => page([]),
    });
    renderApp("/admin/gifts");
    await userEvent.click(within(await codeRow(5)).getByRole("button", { name: "兑换记录" }));
    const dialog = await screen.findByRole("dialog", { name: "礼包码 SP****05 的兑换记录" });
    expect(await within(dialog).findByText("还没有人兑换这个码")).toBeInTheDocument();
    expect(api.callsTo("/redemptions")).toHaveLength(1);
  });
});

describe("whole codes", () => {
  it("are shown once, right after creating a batch, with its export; the list shows them masked", async () => {
    const api = engagementBackend({
      "GET /admin/me": () => adminMe(),
      "GET /admin/gift-codes/batches": () => page([]),
      "GET /admin/gift-codes": () => page([giftCode({ id: 5, packCode: "SP****05" })]),
      "POST /admin/gift-codes/batches": (call: FakeCall) => ({
        batch: (call.body as { batch: string }).batch,
        codes: ["SPRING05", "SPRING06"],
        created: true,
      }),
    });
    renderApp("/admin/gifts");
    const form = await screen.findByTestId("gift-batch-form", {}, { timeout: 5000 });
    await userEvent.clear(within(form).getByTestId("gift-batch-name"));
    await userEvent.type(within(form).getByTestId("gift-batch-name"), "spring");
    await userEvent.type(within(form).getByTestId("gift-reward"), "50");
    await userEvent.click(within(form).getByTestId("gift-generate"));

    const created = await screen.findByTestId("gift-created");
    expect(
      within(created)
        .getAllByTestId("gift-code-value")
        .map((c) => c.textContent),
    ).toEqual(["SPRING05", "SPRING06"]);
    expect(within(created).getByTestId("gift-export")).toHaveAttribute(
      "href",
      expect.stringContaining("/admin/gift-codes/export?batch=spring"),
    );
    expect(api.callsTo("/gift-codes/batches").filter((c) => c.method === "POST")).toHaveLength(1);

    // the list: masked, and it says where the whole codes are
    expect(within(await codeRow(5)).getByText("SP****05")).toBeInTheDocument();
    expect(screen.getByTestId("gift-codes-masked")).toHaveTextContent("导出该批次的 CSV");
  });
});
