import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminUserDetail } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, userRow } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => vi.unstubAllGlobals());

const params = (call: FakeCall | undefined) =>
  Object.fromEntries([...(call?.url.searchParams ?? [])].filter(([k]) => k !== "timeStamp"));

describe("the users table: paged, sorted and filtered by the server", () => {
  it("sends page, size, sort, order and the search; shows the total and the pager", async () => {
    const api = engagementBackend({
      "GET /admin/me": () => adminMe(),
      "GET /admin/users": (call) => {
        const page = Number(call.url.searchParams.get("page"));
        return { items: [userRow({ id: page * 10 }), userRow({ id: page * 10 + 1 })], total: 45, page, pageSize: 20 };
      },
    });
    renderApp("/admin/users");
    await screen.findByTestId("user-10", {}, { timeout: 5000 });
    const users = () => api.callsTo("/admin/users");
    expect(params(users()[0])).toEqual({ page: "1", pageSize: "20", sort: "createdAt", order: "desc" });
    expect(screen.getByTestId("pager-total")).toHaveTextContent("共 45 条");
    expect(screen.getByTestId("pager-position")).toHaveTextContent("第 1 / 3 页");

    await userEvent.click(screen.getByRole("button", { name: "下一页" }));
    await screen.findByTestId("user-20");
    expect(params(users().at(-1))).toMatchObject({ page: "2" });

    // a column's header sorts by it (descending first), from page 1 again
    await userEvent.click(screen.getByRole("button", { name: /悦豆/ }));
    await waitFor(() =>
      expect(params(users().at(-1))).toMatchObject({ page: "1", sort: "beanBalance", order: "desc" }),
    );
    expect(screen.getByRole("columnheader", { name: /悦豆/ })).toHaveAttribute("aria-sort", "descending");
    await userEvent.click(screen.getByRole("button", { name: /悦豆/ }));
    await waitFor(() => expect(params(users().at(-1))).toMatchObject({ sort: "beanBalance", order: "asc" }));

    // the search goes to the server (digits only), and so does a status
    const filters = screen.getByTestId("users-filters");
    await userEvent.type(within(filters).getByLabelText("手机号或用户 ID"), "138-0000");
    await userEvent.click(within(filters).getByRole("button", { name: "筛选" }));
    await waitFor(() => expect(params(users().at(-1))).toMatchObject({ q: "1380000", page: "1" }));
    await userEvent.selectOptions(within(filters).getByLabelText("状态"), "disabled");
    await waitFor(() => expect(params(users().at(-1))).toMatchObject({ q: "1380000", status: "disabled" }));
  });

  it("shows the empty state when nothing matches, and the error state with a retry", async () => {
    let fail = true;
    engagementBackend({
      "GET /admin/me": () => adminMe(),
      "GET /admin/users": () => {
        if (fail) return new Response("boom", { status: 500 });
        return { items: [], total: 0, page: 1, pageSize: 20 };
      },
    });
    renderApp("/admin/users");
    const retry = await screen.findByRole("button", { name: "重试" }, { timeout: 8000 });
    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByText("暂无数据")).toBeInTheDocument();
  });
});

function detail(over: Partial<AdminUserDetail> = {}): AdminUserDetail {
  return {
    ...userRow({ id: 7, beanBalance: 120, isMember: true, memberUntil: "2027-01-01T00:00:00.000Z" }),
    userPhoto: "",
    disabledReason: "",
    inviteCode: "ABCD2345",
    invitedById: null,
    sessions: 1,
    cards: [],
    cardSecondsLeft: 3600,
    orders: [],
    orderCount: 0,
    recordCount: 3,
    storageBytes: 5 * 1024 * 1024,
    voiceCount: 0,
    grants: [],
    ...over,
  };
}

describe("granting to a user", () => {
  it("needs a reason, sends integer amounts with one requestId per opening: a double click grants once", async () => {
    const api = engagementBackend({
      "GET /admin/me": () => adminMe(),
      "GET /admin/users/7": () => detail(),
      "GET /admin/users/7/beans": () => ({ items: [], total: 0, page: 1, pageSize: 20 }),
      "POST /admin/users/7/grants": async (call) => {
        await new Promise((r) => setTimeout(r, 50));
        const body = call.body as { requestId: string; amount: number };
        return {
          grant: {
            id: 1,
            requestId: body.requestId,
            userId: 7,
            actorId: 42,
            kind: "beans",
            amount: body.amount,
            reason: "x",
            createdAt: "",
          },
          replayed: false,
          memberUntil: null,
          beanBalance: 170,
          cardSecondsLeft: 0,
        };
      },
    });
    renderApp("/admin/users/7");
    expect(await screen.findByTestId("user-beans", {}, { timeout: 5000 })).toHaveTextContent("120");

    await userEvent.click(screen.getByTestId("user-grant"));
    let dialog = await screen.findByRole("dialog", { name: "给用户 7 发放" });
    await userEvent.selectOptions(within(dialog).getByTestId("grant-kind"), "beans");
    await userEvent.type(within(dialog).getByTestId("grant-amount"), "50");
    await userEvent.click(within(dialog).getByTestId("grant-submit"));
    expect(within(dialog).getByText("请填写原因（至少 2 个字）")).toBeInTheDocument();
    expect(api.callsTo("/grants")).toHaveLength(0);

    await userEvent.type(within(dialog).getByTestId("reason"), "补偿上传失败");
    const submit = within(dialog).getByTestId("grant-submit");
    await userEvent.dblClick(submit);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const grants = api.callsTo("/grants");
    expect(grants).toHaveLength(1);
    const first = grants[0]?.body as { requestId: string; kind: string; amount: number; reason: string };
    expect(first).toMatchObject({ kind: "beans", amount: 50, reason: "补偿上传失败" });
    expect(first.requestId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);

    // a new opening is a new grant: a new key
    await userEvent.click(screen.getByTestId("user-grant"));
    dialog = await screen.findByRole("dialog", { name: "给用户 7 发放" });
    expect(within(dialog).getByTestId("grant-form").dataset.requestId).not.toBe(first.requestId);
  });
});
