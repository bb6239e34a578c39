import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "../../lib/i18n.ts";
import { fakeApi, signInCookies } from "../../testing/fake-api.ts";
import { renderApp } from "../../testing/render.tsx";

const user = (over: Record<string, unknown> = {}) => ({
  userId: 42,
  userPhoto: "",
  nickName: "小明",
  phoneNumber: "138****0000",
  isMember: false,
  memberEffectiveTime: 0,
  infoCollectChannel: "",
  infoCollectIdentity: "",
  received: true,
  receiveSuccess: false,
  blackProReceive: true,
  createTime: 1_700_000_000,
  inviteCode: "ABCD2345",
  ...over,
});

function backend(info: ReturnType<typeof user>, deletion = 0) {
  let current = info;
  return fakeApi({
    "POST /api/v3/user/delete_account_status": () => ({
      status: deletion,
      deleteTime: 1_700_000_000,
      purgeTime: 1_700_604_800,
    }),
    "POST /api/v3/user/cancel_delete_account": () => ({ status: 0, deleteTime: 0, purgeTime: 0 }),
    "GET /api/v1/user/info": () => current,
    "GET /api/v1/user/storage_info": () => ({
      timeUsedToday: 0,
      timeLimitToday: 36000,
      timeUsed: 3600,
      timeLimit: 10800,
      auth: 0,
    }),
    "POST /api/v1/store/get_asset": () => ({ allTimeCard: 7200, allCoinNumber: 15 }),
    "POST /notify/get_unread_size": () => ({ unreadSize: 120 }),
    "GET /api/v2/menu/sound_list": () => [],
    "GET /api/v1/info_collect": () => ({
      identityList: [
        { id: 1, name: "学生", value: "学生" },
        { id: 2, name: "教师", value: "教师" },
      ],
      channelList: [{ id: 8, name: "朋友推荐", value: "朋友推荐" }],
    }),
    "POST /api/v1/update_info_collect": (call) => {
      const b = call.body as { identity?: string; channel?: string };
      current = {
        ...current,
        infoCollectIdentity: b.identity ?? current.infoCollectIdentity,
        infoCollectChannel: b.channel ?? current.infoCollectChannel,
      };
      return {};
    },
    "POST /api/v1/user/update_info": () => current,
    "POST /api/v1/store/sign_info": () => ({ allSignDay: 0, nowMonth: 11, todaySign: true, rewardContentList: [] }),
  });
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("after login (spec §4)", () => {
  it("shows the deletion warning first and loads nothing else; abandoning cancels and reloads", async () => {
    const api = backend(user(), 1);
    const reload = vi.fn();
    const real = window.location;
    vi.spyOn(window, "location", "get").mockReturnValue({
      origin: real.origin,
      hostname: real.hostname,
      href: real.href,
      pathname: real.pathname,
      search: "",
      reload,
    } as unknown as Location);
    renderApp("/transaudio");
    expect(await screen.findByText("账号注销中")).toBeInTheDocument();
    expect(api.callsTo("/api/v1/user/info")).toHaveLength(0);
    await userEvent.click(screen.getByRole("button", { name: "放弃注销" }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(api.callsTo("/cancel_delete_account")).toHaveLength(1);
    vi.restoreAllMocks();
  });

  it("header shows member state, beans, time cards and a 99+ unread badge", async () => {
    backend(
      user({ infoCollectIdentity: "学生", infoCollectChannel: "朋友推荐", received: false, blackProReceive: false }),
    );
    renderApp("/transaudio");
    await waitFor(() => expect(screen.getByTestId("beans")).toHaveTextContent("15"));
    expect(screen.getByTestId("time-card")).toHaveTextContent("2小时");
    expect(await screen.findByTestId("member-badge")).toHaveTextContent("普通用户");
    await waitFor(() => expect(screen.getByTestId("unread")).toHaveTextContent("99+"));
  });
});

describe("onboarding survey and gift chain", () => {
  it("survey: next/submit disabled until chosen, then the new-user gift, then the black card", async () => {
    const api = backend(user());
    renderApp("/transaudio");
    expect(await screen.findByText("你的身份是？", { selector: "h3" })).toBeInTheDocument();
    const next = screen.getByRole("button", { name: "下一步" });
    expect(next).toBeDisabled();
    await userEvent.click(await screen.findByLabelText("教师"));
    expect(next).toBeEnabled();
    await userEvent.click(next);
    expect(await screen.findByText("你是从哪里了解到悦录的？", { selector: "h3" })).toBeInTheDocument();
    const submit = screen.getByRole("button", { name: "提交" });
    expect(submit).toBeDisabled();
    await userEvent.click(await screen.findByLabelText("朋友推荐"));
    await userEvent.click(submit);
    expect(api.callsTo("/update_info_collect").map((c) => c.body)).toEqual([
      { identity: "教师" },
      { channel: "朋友推荐" },
    ]);

    expect(await screen.findByTestId("gift-new_user")).toHaveTextContent("3 小时");
    await userEvent.click(screen.getByRole("button", { name: "开心收下" }));
    expect(await screen.findByTestId("gift-black_card")).toHaveTextContent("30 天");
    expect(screen.queryByTestId("gift-invite")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "开心收下" }));
    await waitFor(() => expect(screen.queryByTestId("gift-black_card")).toBeNull());
    expect(api.callsTo("/update_info").map((c) => c.body)).toEqual([
      { giftsShown: ["new_user"] },
      { giftsShown: ["black_card"] },
    ]);
  });

  it("opens on step 2 when the identity is known; closing early submits Skip for the channel", async () => {
    const api = backend(user({ infoCollectIdentity: "学生", received: false, blackProReceive: false }));
    renderApp("/transaudio");
    expect(await screen.findByText("你是从哪里了解到悦录的？", { selector: "h3" })).toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(api.callsTo("/update_info_collect")).toHaveLength(1));
    expect(api.callsTo("/update_info_collect")[0]?.body).toEqual({ channel: "Skip" });
  });

  it("closing step 1 early submits Skip for both parts", async () => {
    const api = backend(user({ received: false, blackProReceive: false }));
    renderApp("/transaudio");
    await screen.findByText("你的身份是？", { selector: "h3" });
    await userEvent.click(screen.getByRole("button", { name: "关闭" }));
    await waitFor(() => expect(api.callsTo("/update_info_collect")).toHaveLength(1));
    expect(api.callsTo("/update_info_collect")[0]?.body).toEqual({ identity: "Skip", channel: "Skip" });
  });
});
