import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LOGIN_SUCCESS_MESSAGE } from "@yuelu/contracts/constants";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SIGN_DIALOG_DELAY_MS } from "@/config/env.ts";
import { localDay } from "@/features/checkin/lib/checkin-rules.ts";
import { loginDialog, rewardDialog } from "@/lib/app-dialogs.ts";
import { setLang } from "@/lib/i18n.ts";
import { refreshSession } from "@/lib/session.ts";
import { dropSignInIntent, peekSignInIntent } from "@/lib/sign-in-intent.ts";
import { StorageKey } from "@/lib/storage.ts";
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

/** Today not checked in yet: what the check-in invitation and the welcome card's offer wait for. */
const NOT_SIGNED = { allSignDay: 0, nowMonth: 11, todaySign: false, rewardContentList: [] };
/** What the login frame posts to the app on success. */
const SUCCESS = { type: LOGIN_SUCCESS_MESSAGE };

/** An anonymous visitor: the session's cookies gone. */
function signOut() {
  for (const name of ["userid", "name"]) document.cookie = `${name}=; Max-Age=0; path=/`;
  refreshSession();
}

/** The names of the dialogs shown from now on, in order (one dialog whose content changes counts once). */
function watchDialogs() {
  const names: string[] = [];
  const observer = new MutationObserver(() => {
    for (const d of document.querySelectorAll('[role="dialog"], [role="alertdialog"]')) {
      const name = d.querySelector(".dialog-title")?.textContent ?? "?";
      if (!names.includes(name)) names.push(name);
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return { names: () => [...names] };
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  act(() => {
    rewardDialog.close();
    loginDialog.close();
  });
  dropSignInIntent();
  sessionStorage.clear();
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

describe("onboarding: one surface, two dialogs at most (issue 43)", () => {
  it("survey (next/submit disabled until chosen), then one card with both gifts and the check-in offer; nothing after", async () => {
    const api = backend(user(), {}, { "POST /api/v1/store/sign_info": () => NOT_SIGNED });
    const dialogs = watchDialogs();
    // My records: a page where the check-in invitation could open by itself
    renderApp("/audio-list");
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

    // both gifts in one card, in the chain's order, with the check-in offered on it
    const card = await screen.findByRole("dialog", { name: "欢迎礼包已到账" });
    expect(within(card).getByTestId("gift-new_user")).toHaveTextContent("3 小时");
    expect(within(card).getByTestId("gift-black_card")).toHaveTextContent("30 天");
    expect(within(card).queryByTestId("gift-invite")).toBeNull();
    expect(await within(card).findByTestId("checkin-offer")).toHaveTextContent("每天签到");
    await userEvent.click(within(card).getByRole("button", { name: "开心收下" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.callsTo("/update_info").map((c) => c.body)).toEqual([{ giftsShown: ["new_user", "black_card"] }]);

    // the user can act: no check-in dialog follows (the card offered it), however long they wait
    await new Promise((r) => setTimeout(r, SIGN_DIALOG_DELAY_MS + 700));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(dialogs.names()).toEqual(["欢迎来到悦录", "欢迎礼包已到账"]);
    expect(localStorage.getItem(StorageKey.checkinOffered)).toBe(localDay());
  });

  it("the card's 'check in' closes it (gifts announced) and opens the reward centre on the check-in", async () => {
    const api = backend(
      user({ ...surveyDone, received: true, receiveSuccess: true, blackProReceive: true }),
      {},
      {
        "POST /api/v1/store/sign_info": () => NOT_SIGNED,
      },
    );
    renderApp("/transaudio");
    const card = await screen.findByRole("dialog", { name: "欢迎礼包已到账" });
    // an invited user's three gifts: 3 h, 5 h, 30 days
    expect(
      within(card)
        .getAllByTestId(/^gift-/)
        .map((g) => g.dataset.testid),
    ).toEqual(["gift-new_user", "gift-invite", "gift-black_card"]);
    expect(within(card).getByTestId("gift-invite")).toHaveTextContent("5 小时");
    await userEvent.click(await within(card).findByRole("button", { name: "去签到" }));
    await screen.findByRole("dialog", { name: "福利中心" }, { timeout: 5000 });
    expect(await screen.findByRole("tab", { name: "每日签到" }, { timeout: 5000 })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    expect(screen.queryByRole("dialog", { name: "欢迎礼包已到账" })).toBeNull();
    expect(api.callsTo("/update_info").map((c) => c.body)).toEqual([
      { giftsShown: ["new_user", "invite", "black_card"] },
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
    const card = await screen.findByRole("dialog", { name: "Your welcome gifts" });
    expect(within(card).getByTestId("gift-new_user")).toHaveTextContent("3 h");
    expect(within(card).getByTestId("gift-black_card")).toHaveTextContent("30 days");
    expect(within(card).getByRole("button", { name: "Happy to accept" })).toBeInTheDocument();
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

describe("signed in, the visitor is where they were going (issue 43)", () => {
  const TRANSAUDIO_ROUTES = {
    "GET /api/v1/hotWords": () => ({ hotWords: [] }),
    "GET /api/v1/dictation/configuration": () => ({ languages: [], maxSpeakers: 10, maxSeconds: 10800 }),
  };

  it("'upload a file' on the landing page: signed in, the upload page; a sign-in given up forgets it", async () => {
    signOut();
    backend(user(surveyDone), {}, TRANSAUDIO_ROUTES);
    const { router } = renderApp("/");
    await userEvent.click(await screen.findByTestId("cta-upload"));
    const frame = await screen.findByTestId("login-frame");
    expect(new URL(frame.getAttribute("src") ?? "", window.location.origin).searchParams.get("redir")).toBe(
      "/transaudio",
    );
    // given up: the header's sign-in later stays on the page
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("login-frame")).toBeNull());
    act(() => loginDialog.open());
    await screen.findByTestId("login-frame");
    expect(peekSignInIntent()).toBeNull();
    act(() => loginDialog.close());

    await userEvent.click(screen.getByTestId("cta-upload"));
    await screen.findByTestId("login-frame");
    signInCookies();
    act(() => window.dispatchEvent(new MessageEvent("message", { origin: window.location.origin, data: SUCCESS })));
    await waitFor(() => expect(router.state.location.pathname).toBe("/transaudio"));
    expect(await screen.findByTestId("upload-zone")).toBeInTheDocument();
    expect(screen.queryByTestId("login-frame")).toBeNull();
  });

  it("the header's sign-in on the landing page stays there", async () => {
    signOut();
    backend(user(surveyDone));
    const { router } = renderApp("/");
    await userEvent.click((await screen.findAllByTestId("login-button"))[0]!);
    await screen.findByTestId("login-frame");
    signInCookies();
    act(() => window.dispatchEvent(new MessageEvent("message", { origin: window.location.origin, data: SUCCESS })));
    await screen.findByTestId("user-menu");
    expect(router.state.location.pathname).toBe("/");
  });
});

describe("invite links (issue 43)", () => {
  it("a visitor arriving with ?invite= lands on the sign-in with the code; it stays with the tab", async () => {
    signOut();
    backend(user(surveyDone));
    const { router } = renderApp("/?invite=abcd2345");
    const frame = await screen.findByTestId("login-frame");
    const src = () => new URL(frame.getAttribute("src") ?? "", window.location.origin);
    expect(src().pathname).toBe("/account/login");
    expect(src().searchParams.get("invite")).toBe("ABCD2345");
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("login-frame")).toBeNull());
    // looking around first: the sign-in still carries the code
    await act(() => router.navigate("/vip"));
    act(() => loginDialog.open());
    const again = await screen.findByTestId("login-frame");
    expect(new URL(again.getAttribute("src") ?? "", window.location.origin).searchParams.get("invite")).toBe(
      "ABCD2345",
    );
  });

  it("a code that cannot be one opens nothing", async () => {
    signOut();
    backend(user(surveyDone));
    renderApp("/?invite=nope");
    await screen.findByTestId("cta-upload");
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId("login-frame")).toBeNull();
  });

  it("the reward centre's gift tab has the user's invite link to copy", async () => {
    backend(user(surveyDone), {}, { "GET /api/v1/challenge/task_list": () => [[], []] });
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderApp("/vip");
    act(() => rewardDialog.open());
    await userEvent.click(await screen.findByRole("tab", { name: "礼包兑换" }, { timeout: 5000 }));
    const section = await screen.findByTestId("invite-link");
    const link = `${window.location.origin}/?invite=ABCD2345`;
    expect(within(section).getByTestId("invite-link-url")).toHaveValue(link);
    expect(section).toHaveTextContent("邀请码：ABCD2345");
    await userEvent.click(within(section).getByRole("button", { name: "复制链接" }));
    expect(writeText).toHaveBeenCalledWith(link);
  });
});

describe("the check-in invitation does not nag (issue 43)", () => {
  it("opens by itself on My records once a day per browser; another load the same day, nothing", async () => {
    backend(user(surveyDone), {}, { "POST /api/v1/store/sign_info": () => NOT_SIGNED });
    const first = renderApp("/audio-list");
    expect(await screen.findByRole("dialog", { name: "福利中心" }, { timeout: 5000 })).toBeInTheDocument();
    act(() => rewardDialog.close());
    first.unmount();
    // a full page load again (the spec's unload sets openSign back to 1)
    localStorage.setItem(StorageKey.openSign, "1");
    renderApp("/audio-list");
    await screen.findByText("还没有记录，上传一个音视频文件开始转写吧");
    await new Promise((r) => setTimeout(r, SIGN_DIALOG_DELAY_MS + 700));
    expect(screen.queryByRole("dialog")).toBeNull();
    // the reward centre stays one click away
    await userEvent.click(screen.getByTestId("rewards"));
    expect(await screen.findByRole("dialog", { name: "福利中心" }, { timeout: 5000 })).toBeInTheDocument();
  });

  it("never opens over a transcript (/detail)", async () => {
    backend(user(surveyDone), {}, { "POST /api/v1/store/sign_info": () => NOT_SIGNED });
    const view = renderApp("/detail?fileId=1");
    await screen.findByTestId("user-menu");
    await new Promise((r) => setTimeout(r, SIGN_DIALOG_DELAY_MS + 700));
    expect(screen.queryByRole("dialog", { name: "福利中心" })).toBeNull();
    expect(localStorage.getItem(StorageKey.checkinOffered)).toBeNull();
    expect(view.router.state.location.pathname).toBe("/detail");
  });
});
