import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rewardDialog } from "@/lib/app-dialogs.ts";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend } from "@/testing/engagement-fixtures.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { fakeUserInfo } from "@/testing/fake-user.ts";
import { renderApp } from "@/testing/render.tsx";
import { isQuietPath } from "../lib/quiet-paths.ts";

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  rewardDialog.close();
  vi.unstubAllGlobals();
});

/** A new user: the survey not answered, the new-user gift granted. And an operator. */
function backend() {
  return engagementBackend({
    "GET /api/v1/user/info": () => fakeUserInfo({ infoCollectIdentity: "", infoCollectChannel: "", received: true }),
    "GET /api/v1/info_collect": () => ({
      identityList: [{ id: 1, name: "学生", value: "学生" }],
      channelList: [{ id: 8, name: "朋友推荐", value: "朋友推荐" }],
    }),
    "GET /admin/me": () => ({ userId: 42, nickName: "小明", phone: "13800000000", role: "admin", version: "1.2.3" }),
    "GET /admin/users": () => ({ items: [], total: 0, page: 1, pageSize: 20 }),
  });
}

describe("onboarding and the engagement dialogs on the operator console", () => {
  it("show nothing over /admin, and go on where they were on a page of the app", async () => {
    const api = backend();
    const { router } = renderApp("/admin/users");
    await screen.findByTestId("admin-console", {}, { timeout: 5000 });
    await screen.findByText("暂无数据", {}, { timeout: 5000 });
    expect(api.callsTo("/api/v1/user/info").length).toBeGreaterThan(0);
    // what would open them elsewhere: onboarding has begun (the survey is its step), the reward dialog asked for
    act(() => rewardDialog.open());
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.queryByText("你的身份是？")).toBeNull();

    // another area of the console: still nothing
    await act(() => router.navigate("/admin"));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole("dialog")).toBeNull();

    // leaving the console: the reward dialog that was asked for; the survey waits for it to close
    // (onboarding never covers another dialog), then comes
    await act(() => router.navigate("/vip"));
    expect(await screen.findByRole("dialog", { name: "福利中心" }, { timeout: 5000 })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 400));
    expect(screen.queryByText("你的身份是？")).toBeNull();
    expect(screen.getAllByRole("dialog")).toHaveLength(1);
    act(() => rewardDialog.close());
    expect(await screen.findByText("你的身份是？", { selector: "h3" }, { timeout: 5000 })).toBeInTheDocument();
  });

  it("the quiet paths are the console's, in any case, and no other", () => {
    for (const p of ["/admin", "/admin/", "/admin/users/7", "/Admin/orders"]) expect(isQuietPath(p), p).toBe(true);
    for (const p of ["/", "/administrator", "/vip", "/helpDocument", "/transaudio"]) {
      expect(isQuietPath(p), p).toBe(false);
    }
  });
});
