import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Person } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, type FakeCall, fakeApi, signInCookies } from "@/testing/fake-api.ts";
import { renderInApp } from "@/testing/render.tsx";
import { PeoplePage } from "./people-page.tsx";

// the page's success toasts and the API client's error toasts, read here (no Toaster is mounted in tests)
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock("sonner", () => ({ toast: { ...toasts, info: vi.fn() } }));

function person(over: Partial<Person> & Pick<Person, "personId" | "name">): Person {
  return { recordings: 1, suggested: 0, createTime: 1_735_000_000, updateTime: 1_735_783_200, ...over };
}

/** A promise the test resolves when it chooses: a request held in flight. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * The account's people behind a fake backend: the list, forget, rename and the remember switch change
 * the state the next list answers with, as the server would. `hold` keeps a route's answer back.
 */
function peopleBackend(list: Person[], { hold }: { hold?: Record<string, Promise<void>> } = {}) {
  const state = { remember: true, list };
  const held = async (route: string) => {
    await hold?.[route];
  };
  const api = fakeApi({
    "POST /api/v3/user/delete_account_status": () => ({ status: 0, deleteTime: 0, purgeTime: 0 }),
    "GET /api/v1/people/list": async () => {
      await held("list");
      return { remember: state.remember, total: state.list.length, list: state.list };
    },
    "POST /api/v1/people/delete": async (call: FakeCall) => {
      await held("delete");
      const { personId } = call.body as { personId: number };
      state.list = state.list.filter((p) => p.personId !== personId);
      return { personId, transcripts: 2 };
    },
    "POST /api/v1/people/rename": (call: FakeCall) => {
      const { personId, name } = call.body as { personId: number; name: string };
      state.list = state.list.map((p) => (p.personId === personId ? { ...p, name } : p));
      return { personId, name, transcripts: 1 };
    },
    "POST /api/v1/people/settings": (call: FakeCall) => {
      const { remember } = call.body as { remember: boolean };
      state.remember = remember;
      if (!remember) state.list = [];
      return { remember };
    },
  });
  return { api, state };
}

const zhang = person({ personId: 7, name: "张三", recordings: 3, suggested: 2 });
const li = person({ personId: 9, name: "李四", recordings: 5 });

beforeEach(() => {
  setLang("zh");
  signInCookies();
  toasts.success.mockReset();
  toasts.error.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the people page", () => {
  it("shows a spinner while loading, then each person's name and recordings (zh)", async () => {
    const list = gate();
    const { api } = peopleBackend([zhang, li], { hold: { list: list.opened } });
    renderInApp(<PeoplePage />);
    await waitFor(() => expect(api.callsTo("/people/list")).toHaveLength(1));
    expect(screen.getByRole("status")).toHaveTextContent("加载中…");
    expect(screen.queryByTestId("people-table")).toBeNull();
    expect(screen.getByTestId("remember-switch")).toBeDisabled();

    list.open();
    const table = await screen.findByTestId("people-table");
    expect(screen.queryByRole("status")).toBeNull();
    const first = within(table).getByTestId("person-7");
    expect(first).toHaveTextContent("张三");
    expect(first).toHaveTextContent("3 条录音");
    expect(first).toHaveTextContent("2 条待确认");
    const second = within(table).getByTestId("person-9");
    expect(second).toHaveTextContent("李四");
    expect(second).toHaveTextContent("5 条录音");
    expect(second).not.toHaveTextContent("待确认");
    expect(within(table).getByRole("columnheader", { name: "出现的录音" })).toBeInTheDocument();
    const remember = screen.getByTestId("remember-switch");
    expect(remember).toBeChecked();
    expect(remember).toBeEnabled();
    expect(screen.getByText(/已开启/)).toBeInTheDocument();
  });

  it("speaks English when the language is en", async () => {
    setLang("en");
    peopleBackend([zhang, li]);
    renderInApp(<PeoplePage />);
    const table = await screen.findByTestId("people-table");
    expect(within(table).getByTestId("person-7")).toHaveTextContent("3 recordings");
    expect(within(table).getByTestId("person-7")).toHaveTextContent("2 to confirm");
    expect(within(table).getByTestId("person-9")).toHaveTextContent("5 recordings");
    expect(within(table).getByRole("columnheader", { name: "Recordings" })).toBeInTheDocument();
    expect(within(table).getByTestId("forget-7")).toHaveTextContent("Forget");
    expect(screen.getByText("Remember speakers' voices")).toBeInTheDocument();
    expect(screen.queryByText(/条录音/)).toBeNull();
  });

  it("says nobody is remembered yet when the list is empty", async () => {
    peopleBackend([]);
    renderInApp(<PeoplePage />);
    expect(await screen.findByTestId("empty-state")).toHaveTextContent("还没有记住任何人");
    expect(screen.queryByTestId("people-table")).toBeNull();
  });

  it("forgets a person after confirming, sending people/delete once even on a double click", async () => {
    const reply = gate();
    const { api } = peopleBackend([zhang, li], { hold: { delete: reply.opened } });
    renderInApp(<PeoplePage />);
    await screen.findByTestId("people-table");

    // cancelling the question sends nothing
    await userEvent.click(screen.getByTestId("forget-7"));
    const asked = await screen.findByRole("dialog", { name: "忘记「张三」？" });
    await userEvent.click(within(asked).getByRole("button", { name: "取消" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.callsTo("/people/delete")).toHaveLength(0);

    await userEvent.click(screen.getByTestId("forget-7"));
    const dialog = await screen.findByRole("dialog", { name: "忘记「张三」？" });
    expect(dialog).toHaveTextContent("会立即删除此人的声纹");
    await userEvent.dblClick(within(dialog).getByTestId("confirm"));
    await waitFor(() => expect(within(dialog).getByTestId("confirm")).toBeDisabled());
    expect(api.callsTo("/people/delete").map((c) => c.body)).toEqual([{ personId: 7 }]);

    reply.open();
    await waitFor(() => expect(screen.queryByTestId("person-7")).toBeNull());
    expect(screen.getByTestId("person-9")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(toasts.success).toHaveBeenCalledWith("已忘记");
    expect(api.callsTo("/people/delete")).toHaveLength(1);
    expect(api.callsTo("/people/list").length).toBeGreaterThanOrEqual(2);
  });

  it("renames a person with people/rename, refusing a name with symbols", async () => {
    const { api } = peopleBackend([zhang, li]);
    renderInApp(<PeoplePage />);
    await screen.findByTestId("people-table");

    await userEvent.click(screen.getByTestId("rename-7"));
    const dialog = await screen.findByRole("dialog", { name: "修改名字" });
    const input = within(dialog).getByRole("textbox", { name: "新名字" });
    expect(input).toHaveValue("张三");

    await userEvent.clear(input);
    await userEvent.type(input, "老王!");
    await userEvent.click(within(dialog).getByRole("button", { name: "确定" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("仅支持中文、英文和数字");
    expect(api.callsTo("/people/rename")).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, "老王");
    await userEvent.click(within(dialog).getByRole("button", { name: "确定" }));
    await waitFor(() =>
      expect(api.callsTo("/people/rename").map((c) => c.body)).toEqual([{ personId: 7, name: "老王" }]),
    );
    await waitFor(() => expect(screen.getByTestId("person-7")).toHaveTextContent("老王"));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(toasts.success).toHaveBeenCalledWith("已改名");
  });

  it("turns remembering off only after confirming: people/settings {remember:false}, then the list is empty", async () => {
    const { api } = peopleBackend([zhang, li]);
    renderInApp(<PeoplePage />);
    await screen.findByTestId("people-table");
    const remember = screen.getByTestId("remember-switch");

    // the switch asks first; cancelling keeps it on and sends nothing
    await userEvent.click(remember);
    const asked = await screen.findByRole("dialog", { name: "关闭声纹记忆？" });
    expect(remember).toBeChecked();
    await userEvent.click(within(asked).getByRole("button", { name: "取消" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.callsTo("/people/settings")).toHaveLength(0);
    expect(remember).toBeChecked();

    await userEvent.click(remember);
    const dialog = await screen.findByRole("dialog", { name: "关闭声纹记忆？" });
    expect(dialog).toHaveTextContent("立即删除所有已保存的声纹和人物");
    await userEvent.click(within(dialog).getByTestId("confirm"));
    await waitFor(() => expect(api.callsTo("/people/settings").map((c) => c.body)).toEqual([{ remember: false }]));

    // off forgets everyone: the list is asked again and comes back empty, the switch off
    expect(await screen.findByTestId("empty-state")).toBeInTheDocument();
    expect(screen.queryByTestId("person-7")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("remember-switch")).not.toBeChecked());
    expect(screen.getByText(/已关闭/)).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull();

    // turning it back on needs no question
    await userEvent.click(screen.getByTestId("remember-switch"));
    await waitFor(() =>
      expect(api.callsTo("/people/settings").map((c) => c.body)).toEqual([{ remember: false }, { remember: true }]),
    );
    expect(screen.queryByRole("dialog")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("remember-switch")).toBeChecked());
  });

  it("shows an error with a retry when the list fails, and loads on retry", async () => {
    const { api, state } = peopleBackend([zhang]);
    let fail = true;
    const routes = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementation(async (input, init) => {
      if (fail && String(input).includes("/people/list")) return envelopeError(500001, "服务繁忙");
      return routes(input, init);
    });
    renderInApp(<PeoplePage />);
    const error = await screen.findByRole("alert");
    expect(error).toHaveTextContent("加载失败");
    expect(screen.queryByTestId("people-table")).toBeNull();
    expect(screen.getByTestId("remember-switch")).toBeDisabled();
    // the list is asked quietly: its failure shows on the page, not in a toast
    expect(toasts.error).not.toHaveBeenCalled();

    fail = false;
    state.list = [zhang, li];
    await userEvent.click(within(error).getByRole("button", { name: "重试" }));
    expect(await screen.findByTestId("person-9")).toHaveTextContent("李四");
  });

  it("toasts the server's message when forgetting fails, and keeps the person", async () => {
    const { api } = peopleBackend([zhang]);
    const routes = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes("/people/delete")) return envelopeError(400001, "此人不存在");
      return routes(input, init);
    });
    renderInApp(<PeoplePage />);
    await screen.findByTestId("people-table");
    await userEvent.click(screen.getByTestId("forget-7"));
    const dialog = await screen.findByRole("dialog", { name: "忘记「张三」？" });
    await userEvent.click(within(dialog).getByTestId("confirm"));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith("此人不存在", expect.anything()));
    expect(toasts.success).not.toHaveBeenCalled();
    expect(screen.getByTestId("person-7")).toBeInTheDocument();
    // the question stays, its button usable again for another try
    expect(within(dialog).getByTestId("confirm")).toBeEnabled();
  });
});
