import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { messageDialog } from "@/lib/app-dialogs.ts";
import { setLang } from "@/lib/i18n.ts";
import { engagementBackend, message } from "@/testing/engagement-fixtures.ts";
import { type FakeCall, signInCookies } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

/** A mailbox: three messages (two unread), an unread count beyond the badge's 99, read_msg and read_all_msg. */
function mailbox(unread = 120) {
  const state = {
    unread,
    messages: [
      message({ notifyId: 3, notifyTitle: "任务奖励已到账", notifyText: "完成「每日签到」，10 悦豆已到账。\n第二行" }),
      message({ notifyId: 2, notifyTitle: "转写完成", sendTime: 1_700_000_000 }),
      message({ notifyId: 1, notifyTitle: "欢迎使用悦录", notifyRead: 1, sendTime: 1_600_000_000 }),
    ],
  };
  const api = engagementBackend({
    "GET /help_document/get_title": () => [],
    "POST /notify/get_unread_size": () => ({ unreadSize: state.unread }),
    "POST /notify/get_list": (call: FakeCall) => {
      const { readSign } = call.body as { readSign: number };
      return readSign === 0 ? state.messages.filter((m) => m.notifyRead === 0) : state.messages;
    },
    "POST /notify/read_msg": (call: FakeCall) => {
      const { notifyId } = call.body as { notifyId: number };
      state.messages = state.messages.map((m) => (m.notifyId === notifyId ? { ...m, notifyRead: 1 } : m));
      state.unread -= 1;
      return { read: 1, unreadSize: state.unread };
    },
    "POST /notify/read_all_msg": () => {
      state.messages = state.messages.map((m) => ({ ...m, notifyRead: 1 }));
      state.unread = 0;
      return { read: 2, unreadSize: 0 };
    },
  });
  return { api, state };
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  act(() => messageDialog.close());
  vi.unstubAllGlobals();
});

describe("the header's messages", () => {
  it("shows the unread count capped at 99+ and opens the message centre", async () => {
    mailbox(120);
    renderApp("/helpDocument");
    const bell = await screen.findByTestId("unread");
    await waitFor(() => expect(within(bell).getByTestId("unread-badge")).toHaveTextContent("99+"));
    expect(bell).toHaveAccessibleName("消息 · 120 条未读消息");
    await userEvent.click(bell);
    expect(await screen.findByRole("dialog", { name: "消息中心" }, { timeout: 5000 })).toBeInTheDocument();
  });

  it("shows the exact count under 100, and no badge at 0", async () => {
    const { state } = mailbox(7);
    renderApp("/helpDocument");
    const bell = await screen.findByTestId("unread");
    await waitFor(() => expect(within(bell).getByTestId("unread-badge")).toHaveTextContent("7"));
    state.unread = 0;
    act(() => messageDialog.open());
    await screen.findByTestId("message-list", {}, { timeout: 5000 });
    act(() => messageDialog.close());
    // closing the dialog asks for the count again
    await waitFor(() => expect(within(bell).queryByTestId("unread-badge")).toBeNull());
  });
});

describe("the message centre", () => {
  it("reads the first message when it is shown, and an unread one when clicked (at once)", async () => {
    const { api } = mailbox(2);
    renderApp("/helpDocument");
    act(() => messageDialog.open());
    const list = await screen.findByTestId("message-list", {}, { timeout: 5000 });
    const dialog = screen.getByRole("dialog", { name: "消息中心" });
    expect(api.callsTo("/get_list")[0]!.body).toEqual({ page: 1, pageSize: 9999, readSign: -1 });

    // the first message is selected on load, and showing it reads it: its dot goes, the count drops
    const detail = within(dialog).getByTestId("message-detail");
    expect(detail).toHaveTextContent("任务奖励已到账");
    expect(detail).toHaveTextContent("来自 悦录");
    expect(within(list).getByTestId("message-3")).toHaveAttribute("aria-current", "true");
    expect(within(list).getByTestId("message-3")).toHaveAttribute("data-read", "1");
    await waitFor(() => expect(api.callsTo("/read_msg").map((c) => c.body)).toEqual([{ notifyId: 3 }]));
    await waitFor(() => expect(within(dialog).getByTestId("unread-count")).toHaveTextContent("1 条未读消息"));
    expect(within(list).getByTestId("message-2")).toHaveTextContent("2023-11-14");

    await userEvent.click(within(list).getByTestId("message-2"));
    expect(within(list).getByTestId("message-2")).toHaveAttribute("data-read", "1");
    expect(detail).toHaveTextContent("转写完成");
    await waitFor(() =>
      expect(api.callsTo("/read_msg").map((c) => c.body)).toEqual([{ notifyId: 3 }, { notifyId: 2 }]),
    );
    await waitFor(() => expect(within(dialog).getByTestId("unread-count")).toHaveTextContent("0 条未读消息"));
    // a read message is not read again
    await userEvent.click(within(list).getByTestId("message-1"));
    await userEvent.click(within(list).getByTestId("message-3"));
    expect(api.callsTo("/read_msg")).toHaveLength(2);
    await waitFor(() => expect(within(screen.getByTestId("unread")).queryByTestId("unread-badge")).toBeNull());
  });

  it("marks all read", async () => {
    const { api, state } = mailbox(3);
    state.messages = [
      message({ notifyId: 5, notifyTitle: "已读", notifyRead: 1 }),
      message({ notifyId: 4, notifyTitle: "未读一" }),
      message({ notifyId: 6, notifyTitle: "未读二" }),
    ];
    state.unread = 2;
    renderApp("/helpDocument");
    act(() => messageDialog.open());
    const list = await screen.findByTestId("message-list", {}, { timeout: 5000 });
    const dialog = screen.getByRole("dialog", { name: "消息中心" });
    await waitFor(() => expect(within(dialog).getByTestId("unread-count")).toHaveTextContent("2 条未读消息"));
    expect(api.callsTo("/read_msg")).toHaveLength(0);
    await userEvent.click(within(dialog).getByTestId("read-all"));
    await waitFor(() => expect(api.callsTo("/read_all_msg")).toHaveLength(1));
    for (const id of [4, 5, 6]) expect(within(list).getByTestId(`message-${id}`)).toHaveAttribute("data-read", "1");
    expect(within(dialog).getByTestId("unread-count")).toHaveTextContent("0 条未读消息");
    expect(within(dialog).getByTestId("read-all")).toBeDisabled();
    await waitFor(() => expect(within(screen.getByTestId("unread")).queryByTestId("unread-badge")).toBeNull());
  });

  it("filters to the unread ones (readSign 0) and says when there are none", async () => {
    const { api, state } = mailbox(2);
    renderApp("/helpDocument");
    act(() => messageDialog.open());
    await screen.findByTestId("message-list", {}, { timeout: 5000 });
    await userEvent.click(screen.getByTestId("only-unread"));
    await waitFor(() => expect(api.callsTo("/get_list").at(-1)!.body).toMatchObject({ readSign: 0 }));
    // message 3 was read when it was shown on load; 2 is still unread
    await waitFor(() => expect(screen.queryByTestId("message-1")).toBeNull());
    expect(screen.queryByTestId("message-3")).toBeNull();
    expect(screen.getByTestId("message-2")).toBeInTheDocument();

    state.messages = state.messages.map((m) => ({ ...m, notifyRead: 1 }));
    await userEvent.click(screen.getByTestId("only-unread"));
    await userEvent.click(screen.getByTestId("only-unread"));
    expect(await screen.findByText("没有未读消息")).toBeInTheDocument();
  });

  it("keeps a message's text as text, line breaks and all", async () => {
    mailbox(1);
    renderApp("/helpDocument");
    act(() => messageDialog.open());
    await screen.findByTestId("message-list", {}, { timeout: 5000 });
    const text = screen.getByTestId("message-detail").querySelector(".msg-detail-text");
    expect(text?.textContent).toBe("完成「每日签到」，10 悦豆已到账。\n第二行");
  });

  it("shows a grouped notice as its summary and the list of its events, each at its time", async () => {
    const { state } = mailbox(1);
    const at = (h: number) => Math.floor(new Date(2025, 0, 2, h, 5).getTime() / 1000);
    state.messages = [
      message({
        notifyId: 9,
        notifyTitle: "转写完成",
        notifyText: "今天已有 2 条记录转写完成，可在“我的记录”中查看和编辑：\n「b.mp3」\n「a.mp3」",
        sendTime: at(11),
        items: [
          { title: "转写完成", text: "「b.mp3」", sendTime: at(11) },
          { title: "转写完成", text: "「a.mp3」", sendTime: at(9) },
        ],
      }),
    ];
    renderApp("/helpDocument");
    act(() => messageDialog.open());
    await screen.findByTestId("message-list", {}, { timeout: 5000 });
    const detail = screen.getByTestId("message-detail");
    expect(detail.querySelector(".msg-detail-text")?.textContent).toBe(
      "今天已有 2 条记录转写完成，可在“我的记录”中查看和编辑：",
    );
    const rows = within(within(detail).getByTestId("message-items")).getAllByRole("listitem");
    expect(rows.map((r) => r.textContent)).toEqual(["2025-01-02 11:05:00「b.mp3」", "2025-01-02 09:05:00「a.mp3」"]);
  });
});
