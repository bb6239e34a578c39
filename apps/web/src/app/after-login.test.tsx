import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { type FakeCall, fakeApi, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

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

const SURVEY_ZH = {
  identityList: [
    { id: 1, name: "学生", value: "学生" },
    { id: 2, name: "教师", value: "教师" },
  ],
  channelList: [{ id: 8, name: "朋友推荐", value: "朋友推荐" }],
};
// The server names the options in the request's language; the value stays the stored Chinese one.
const SURVEY_EN = {
  identityList: [
    { id: 1, name: "Student", value: "学生" },
    { id: 2, name: "Teacher", value: "教师" },
  ],
  channelList: [{ id: 8, name: "A friend", value: "朋友推荐" }],
};

function backend(
  info: ReturnType<typeof user>,
  { deletion = 0, storage = { timeUsedToday: 0, timeUsed: 3600 } } = {},
  routes: Parameters<typeof fakeApi>[0] = {},
) {
  let current = info;
  return fakeApi({
    "POST /api/v3/user/delete_account_status": () => ({
      status: deletion,
      deleteTime: 1_700_000_000,
      purgeTime: 1_700_604_800,
    }),
    "POST /api/v3/user/cancel_delete_account": () => ({ status: 0, deleteTime: 0, purgeTime: 0 }),
    "GET /api/v1/user/info": () => current,
    "GET /api/v1/user/storage_info": () => ({ timeLimitToday: 36000, timeLimit: 10800, auth: 0, ...storage }),
    "POST /api/v1/store/get_asset": () => ({ allTimeCard: 7200, allCoinNumber: 15 }),
    "POST /notify/get_unread_size": () => ({ unreadSize: 120 }),
    "GET /api/v2/menu/sound_list": () => [],
    "GET /api/v3/audio/all_list": () => ({ total: 0, records: [] }),
    "GET /api/v1/info_collect": (call: FakeCall) => (call.headers.lang === "en" ? SURVEY_EN : SURVEY_ZH),
    "POST /api/v1/update_info_collect": (call: FakeCall) => {
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
    ...routes,
  });
}

/** window.location with navigation spied on (the rest as the test page's). */
function spyLocation() {
  const reload = vi.fn();
  const assign = vi.fn();
  const real = window.location;
  vi.spyOn(window, "location", "get").mockReturnValue({
    origin: real.origin,
    hostname: real.hostname,
    href: real.href,
    pathname: real.pathname,
    search: "",
    reload,
    assign,
  } as unknown as Location);
  return { reload, assign };
}

const surveyDone = {
  infoCollectIdentity: "学生",
  infoCollectChannel: "朋友推荐",
  received: false,
  blackProReceive: false,
};

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the deletion check comes first, on every route (spec §4)", () => {
  it.each(["/transaudio", "/audio-list", "/personalInfo", "/", "/detail?fileId=1"])(
    "%s: a pending deletion shows only the warning; nothing else is called, the user stays signed in",
    async (path) => {
      const api = backend(user(), { deletion: 1 });
      renderApp(path);
      expect(await screen.findByRole("dialog", { name: "账号注销中" })).toBeInTheDocument();
      // Let any stray query start, then look: only the deletion status was asked.
      await new Promise((r) => setTimeout(r, 50));
      expect(new Set(api.calls.map((c) => c.url.pathname))).toEqual(
        new Set(["/voice_yuelu/api/v3/user/delete_account_status"]),
      );
      expect(document.cookie).toContain("userid=42");
      expect(screen.queryByTestId("records-table")).toBeNull();
      expect(screen.queryByTestId("user-menu")).toBeNull();
    },
  );

  it("abandoning cancels the deletion and reloads", async () => {
    const api = backend(user(), { deletion: 1 });
    const { reload } = spyLocation();
    renderApp("/audio-list");
    await userEvent.click(await screen.findByRole("button", { name: "放弃注销" }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(api.callsTo("/cancel_delete_account")).toHaveLength(1);
  });

  it("continuing signs out through the account service", async () => {
    backend(user(), { deletion: 1 });
    const { assign } = spyLocation();
    renderApp("/audio-list");
    await userEvent.click(await screen.findByRole("button", { name: "继续注销" }));
    expect(assign).toHaveBeenCalledWith(expect.stringMatching(/^\/account\/logout\?redir=/));
  });

  it("nothing that needs an active account runs until the status answers 0", async () => {
    let answer: (value: unknown) => void = () => {};
    const status = new Promise((resolve) => {
      answer = resolve;
    });
    const api = backend(
      user(surveyDone),
      {},
      {
        "POST /api/v3/user/delete_account_status": () => status,
      },
    );
    renderApp("/audio-list");
    expect(await screen.findByTestId("account-gate-checking")).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls.map((c) => c.url.pathname)).toEqual(["/voice_yuelu/api/v3/user/delete_account_status"]);

    answer({ status: 0, deleteTime: 0, purgeTime: 0 });
    expect(await screen.findByText("还没有记录，上传一个音视频文件开始转写吧")).toBeInTheDocument();
    expect(api.callsTo("/all_list").length).toBeGreaterThan(0);
    expect(api.callsTo("/api/v1/user/info").length).toBeGreaterThan(0);
  });

  it("a session the server no longer knows (10001) leaves the visitor anonymous", async () => {
    backend(
      user(),
      {},
      {
        "POST /api/v3/user/delete_account_status": () =>
          new Response(JSON.stringify({ status_code: 10001, status_msg: "未登录", data: null }), {
            headers: { "content-type": "application/json" },
          }),
      },
    );
    renderApp("/audio-list");
    expect(await screen.findByText("登录后查看")).toBeInTheDocument();
    expect(document.cookie).not.toContain("userid=42");
  });
});

describe("the header", () => {
  it("shows member state, beans, time cards and a 99+ unread badge", async () => {
    backend(user(surveyDone));
    renderApp("/transaudio");
    await waitFor(() => expect(screen.getByTestId("beans")).toHaveTextContent("15"));
    expect(screen.getByTestId("time-card")).toHaveTextContent("2 小时");
    // Not a member: the badge is the 'become a member' button that opens the cashier.
    const badge = await screen.findByTestId("member-badge");
    expect(badge).toHaveTextContent("开通会员");
    expect(badge).toHaveAttribute("data-member", "0");
    await waitFor(() => expect(screen.getByTestId("unread")).toHaveTextContent("99+"));
  });

  it("shows the default nickname '用户1234' as 'User 1234' in English, and a chosen one as it is", async () => {
    backend(user({ ...surveyDone, nickName: "用户1234" }));
    renderApp("/vip");
    await waitFor(() => expect(screen.getByTestId("user-name")).toHaveTextContent("用户1234"));
    setLang("en");
    await waitFor(() => expect(screen.getByTestId("user-name")).toHaveTextContent("User 1234"));
  });

  it("quotas under an hour read in minutes, never '0 hours · 0%'", async () => {
    backend(user(surveyDone), { storage: { timeUsed: 12 * 60, timeUsedToday: 20 } });
    renderApp("/personalInfo");
    const total = await screen.findByTestId("quota-total");
    expect(total).toHaveTextContent("已用 12 分钟 / 3 小时 · 7%");
    expect(screen.getByTestId("quota-today")).toHaveTextContent("已用 1 分钟 / 10 小时 · <1%");
    setLang("en");
    await waitFor(() => expect(total).toHaveTextContent("12 min of 3 h used · 7%"));
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

  it("in English: shows the options' English names but stores their values; gifts in English plurals", async () => {
    setLang("en");
    const api = backend(user());
    renderApp("/transaudio");
    const dialog = await screen.findByRole("dialog", { name: "Welcome to Yuelu" });
    await userEvent.click(await within(dialog).findByLabelText("Teacher"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Next" }));
    await userEvent.click(await within(dialog).findByLabelText("A friend"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await waitFor(() => expect(api.callsTo("/update_info_collect")).toHaveLength(2));
    expect(api.callsTo("/update_info_collect").map((c) => c.body)).toEqual([
      { identity: "教师" },
      { channel: "朋友推荐" },
    ]);
    expect(await screen.findByTestId("gift-new_user")).toHaveTextContent("3 h");
    await userEvent.click(screen.getByRole("button", { name: "Happy to accept" }));
    expect(await screen.findByTestId("gift-black_card")).toHaveTextContent("30 days");
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
