import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";
import { adminMe, figures, page, queues, userRow, version } from "../testing/fake-admin.ts";

beforeEach(() => {
  setLang("en");
  signInCookies();
});
afterEach(() => {
  setLang("zh");
  vi.unstubAllGlobals();
});

describe("the console in English", () => {
  it("has its English texts, not the Chinese ones they fall back to", async () => {
    engagementBackend({
      "GET /admin/me": () => adminMe({ nickName: "用户6454" }),
      "GET /admin/system/figures": () => figures(),
      "GET /admin/system/version": () => version(),
      "GET /admin/system/queues": () => queues(),
      "GET /admin/users": () => page([userRow({ id: 7 })]),
    });
    const { router } = renderApp("/admin");
    const console = await screen.findByTestId("admin-console", {}, { timeout: 5000 });
    expect(await screen.findByRole("heading", { level: 1, name: "Overview" }, { timeout: 5000 })).toBeInTheDocument();
    const nav = within(console).getAllByRole("navigation", { name: "Console navigation" })[0] as HTMLElement;
    expect(within(nav).getByRole("link", { name: /Gift codes/ })).toBeInTheDocument();
    expect(screen.getByTestId("admin-version")).toHaveTextContent("Version 1.2.3");
    // the default nickname the server gives, as the app's header shows it in English
    expect(within(console).getByText("User 6454")).toBeInTheDocument();
    expect(await screen.findByTestId("chart-signups-summary", {}, { timeout: 5000 })).toHaveTextContent(/^Total 8/);

    await router.navigate("/admin/users");
    expect(await screen.findByRole("heading", { level: 1, name: "Users" }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByLabelText("Phone or user ID", {}, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByTestId("pager-total", {}, { timeout: 5000 })).toHaveTextContent("1 row");
  });
});
