import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StatusCode } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { envelopeError, fakeApi, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { addDays } from "../lib/format.ts";
import { adminMe, figures, queues, version } from "../testing/fake-admin.ts";

beforeEach(() => setLang("zh"));
afterEach(() => vi.unstubAllGlobals());

describe("who gets the console (/admin)", () => {
  it("asks a visitor to sign in, without asking the server who they are", async () => {
    const api = fakeApi({
      "GET /api/v3/user/virtual_login": () => ({ tempCode: "t", firstSeen: true }),
    });
    renderApp("/admin");
    const gate = await screen.findByTestId("admin-sign-in", {}, { timeout: 5000 });
    expect(within(gate).getByRole("heading", { name: "运营后台" })).toBeInTheDocument();
    expect(within(gate).getByText("登录后查看")).toBeInTheDocument();
    expect(within(gate).getByRole("button", { name: "登录" })).toBeInTheDocument();
    expect(api.callsTo("/admin/me")).toHaveLength(0);
  });

  it("tells a signed-in user without the role how it is granted", async () => {
    signInCookies();
    engagementBackend({ "GET /admin/me": () => envelopeError(StatusCode.AccessDenied, "无权访问") });
    renderApp("/admin/users");
    const page = await screen.findByTestId("admin-no-access", {}, { timeout: 5000 });
    expect(within(page).getByRole("heading", { name: "没有访问权限" })).toBeInTheDocument();
    expect(page).toHaveTextContent("npm run admin -- grant <phone>");
    expect(screen.queryByTestId("admin-console")).not.toBeInTheDocument();
  });

  it("asks again to sign in when the session has ended (10001)", async () => {
    signInCookies();
    engagementBackend({ "GET /admin/me": () => envelopeError(StatusCode.NotLoggedIn) });
    renderApp("/admin");
    expect(await screen.findByText("登录已失效，请重新登录。", {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it("opens the console for an operator: the areas, the version and the overview's charts with their tables", async () => {
    signInCookies();
    const api = engagementBackend({
      "GET /admin/me": () => adminMe(),
      "GET /admin/system/figures": () => figures(),
      "GET /admin/system/version": () => version(),
      "GET /admin/system/queues": () => queues(),
    });
    renderApp("/admin");
    const console = await screen.findByTestId("admin-console", {}, { timeout: 5000 });
    const nav = within(console).getAllByRole("navigation", { name: "运营后台导航" })[0] as HTMLElement;
    expect(
      within(nav)
        .getAllByRole("link")
        .map((a) => a.textContent),
    ).toEqual([
      "◷概览",
      "¥商品与价格",
      "🎁礼包码",
      "✉站内消息",
      "?帮助与反馈",
      "☺用户",
      "≡订单",
      "⇄Webhook",
      "⚙系统",
      "✎操作日志",
    ]);
    expect(within(nav).getByRole("link", { name: /概览/ })).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("admin-version")).toHaveTextContent("版本 1.2.3");

    // each chart is one image named by its title and summary, with the day-by-day table below it
    const revenue = await screen.findByTestId("chart-revenue", {}, { timeout: 5000 });
    expect(within(revenue).getByRole("img")).toHaveAccessibleName(
      "收入（已付款 − 已退款） 合计 ¥334.50, 最高 ¥336.00（2026-11-24）",
    );
    expect(within(revenue).getByRole("table")).toHaveTextContent("2026-11-25-¥1.50");
    expect(screen.getByTestId("overview-totals")).toHaveTextContent("¥334.50");
    expect(within(screen.getByTestId("queue-depths")).getByTestId("queue-transcription")).toHaveTextContent(
      "transcription3102",
    );
    await waitFor(() => expect(document.title).toBe("运营后台 - 悦录"));
    // the last 30 days are the server's default; another period ends on the server's today (its time zone's)
    expect(api.callsTo("/admin/system/figures")[0]?.url.searchParams.has("from")).toBe(false);
    await userEvent.selectOptions(screen.getByTestId("overview-range"), "7");
    await waitFor(() => expect(api.callsTo("/admin/system/figures")).toHaveLength(2));
    const week = api.callsTo("/admin/system/figures")[1]?.url.searchParams;
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date());
    expect([week?.get("from"), week?.get("to")]).toEqual([addDays(today, -6), today]);
  });
});
