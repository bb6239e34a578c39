import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { StorageKey } from "@/lib/storage.ts";
import { envelopeError, signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";

/** Issue 43: /detail saves while typing, guards leaving, tells a conflict; the space bar plays and pauses. */

const SEGMENTS = [
  { spkName: "说话人1", startTime: 0, endTime: 4000, text: "大家好，今天开会讨论预算。" },
  { spkName: "说话人2", startTime: 4000, endTime: 9000, text: "好的，预算已经准备好了。" },
  { spkName: "王老师", startTime: 9500, endTime: 12000, text: "预算需要再看一遍。" },
];

function textDetail(version: number, segments = SEGMENTS) {
  return {
    fileId: 1,
    fileName: "录音1.mp3",
    updateTime: 1_735_787_045,
    timeLen: 15,
    language: "zh",
    asrResult: JSON.stringify(segments),
    abstracts: "",
    audio: null,
    version,
  };
}

function backend(routes: Parameters<typeof signedInBackend>[0] = {}) {
  return signedInBackend({
    "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1 }),
    "GET /api/v2/audio/text/get_text": () => textDetail(3),
    "POST /text/update_para": () => ({ version: 4 }),
    ...routes,
  });
}

const segments = () => screen.findAllByTestId("segment", {}, { timeout: 10_000 });
const status = () => screen.getByTestId("save-status");
/** Whether closing the tab now would ask first. */
const unloadAsks = () => {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

beforeEach(() => {
  setLang("zh");
  signInCookies();
  localStorage.removeItem(StorageKey.transcriptDrafts);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("/detail: no edit is ever lost", () => {
  it("saves while typing (保存中… then 已保存) with the version; closing the tab asks only while unsaved", async () => {
    const api = backend();
    renderApp("/detail?fileId=1");
    const items = await segments();
    expect(screen.getAllByTestId("avatar").map((a) => a.textContent)).toEqual(["1", "2", "王"]);
    await userEvent.click(within(items[1]!).getByRole("button", { name: "修改第 2 段" }));
    await userEvent.type(within(items[1]!).getByRole("textbox"), "再确认");
    expect(status()).toHaveTextContent("保存中…");
    expect(unloadAsks()).toBe(true);
    // kept in this browser at once: a reload before the save gives it back
    expect(JSON.parse(localStorage.getItem(StorageKey.transcriptDrafts) ?? "{}")).toEqual({
      1: [[1, "好的，预算已经准备好了。再确认", "好的，预算已经准备好了。"]],
    });

    // the box is still open: saved after the pause, not only when it is left
    await waitFor(() => expect(api.callsTo("/update_para")).toHaveLength(1), { timeout: 3_000 });
    expect(api.callsTo("/update_para")[0]!.body).toEqual({
      fileId: 1,
      index: 1,
      text: "好的，预算已经准备好了。再确认",
      version: 3,
    });
    await waitFor(() => expect(status()).toHaveTextContent("已保存"));
    expect(unloadAsks()).toBe(false);
    expect(localStorage.getItem(StorageKey.transcriptDrafts)).toBeNull();

    // the next edit goes on the version the last one answered
    await userEvent.type(within(items[1]!).getByRole("textbox"), "。");
    await userEvent.tab();
    await waitFor(() => expect(api.callsTo("/update_para")).toHaveLength(2));
    expect(api.callsTo("/update_para")[1]!.body).toMatchObject({
      text: "好的，预算已经准备好了。再确认。",
      version: 4,
    });
  });

  it("a reload gives back a line typed and not yet saved, and saves it", async () => {
    localStorage.setItem(
      StorageKey.transcriptDrafts,
      JSON.stringify({ 1: [[2, "预算需要再看两遍。", "预算需要再看一遍。"]] }),
    );
    const api = backend();
    renderApp("/detail?fileId=1");
    const items = await segments();
    expect(within(items[2]!).getByTestId("segment-text")).toHaveTextContent("预算需要再看两遍。");
    await waitFor(() => expect(api.callsTo("/update_para")).toHaveLength(1));
    expect(api.callsTo("/update_para")[0]!.body).toEqual({
      fileId: 1,
      index: 2,
      text: "预算需要再看两遍。",
      version: 3,
    });
  });

  it("offline: says so and keeps the text; leaving inside the app asks first", async () => {
    backend({
      "POST /text/update_para": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const { router } = renderApp("/detail?fileId=1");
    const items = await segments();
    await userEvent.dblClick(within(items[0]!).getByTestId("segment-text"));
    await userEvent.type(within(items[0]!).getByRole("textbox"), "（离线）");
    await userEvent.tab();
    await waitFor(() => expect(status()).toHaveTextContent("离线，稍后重试"));
    expect(within(items[0]!).getByTestId("segment-text")).toHaveTextContent("大家好，今天开会讨论预算。（离线）");

    await userEvent.click(screen.getByRole("link", { name: "返回我的记录" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("修改还没有保存");
    await userEvent.click(within(dialog).getByRole("button", { name: "取消" }));
    expect(router.state.location.pathname).toBe("/detail");

    await userEvent.click(screen.getByRole("link", { name: "返回我的记录" }));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "仍要离开" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/audio-list"));
    // the words stay in this browser for the next visit
    expect(localStorage.getItem(StorageKey.transcriptDrafts)).toContain("（离线）");
  });

  it("a conflict with another tab or device: said, nothing overwritten, the text kept; reload shows the latest", async () => {
    let version = 3;
    let theirs = SEGMENTS;
    const api = backend({
      "GET /api/v2/audio/text/get_text": () => textDetail(version, theirs),
      "POST /text/update_para": () => envelopeError(30002, "这份转写已在其他标签页或设备上修改，请重新载入后再编辑"),
    });
    renderApp("/detail?fileId=1");
    const items = await segments();
    // meanwhile another device rewrote line 2
    version = 4;
    theirs = SEGMENTS.map((s, i) => (i === 1 ? { ...s, text: "另一台设备改的第二句。" } : s));
    // from the keyboard: Enter on the line's text edits it
    within(items[1]!).getByTestId("segment-text").focus();
    await userEvent.keyboard("{Enter}");
    const box = within(items[1]!).getByRole("textbox");
    await userEvent.clear(box);
    await userEvent.type(box, "我在这里改的第二句。");
    await userEvent.tab();

    const alert = await screen.findByTestId("save-conflict");
    expect(alert).toHaveTextContent("这份转写已在其他标签页或设备上修改。你输入的文字没有覆盖对方的修改");
    expect(api.callsTo("/update_para")).toHaveLength(1);
    expect(within(items[1]!).getByTestId("segment-text")).toHaveTextContent("我在这里改的第二句。");
    expect(unloadAsks()).toBe(true);

    await userEvent.click(within(alert).getByRole("button", { name: "载入最新版本" }));
    await waitFor(() => expect(screen.queryByTestId("save-conflict")).toBeNull());
    expect(within(items[1]!).getByTestId("segment-text")).toHaveTextContent("另一台设备改的第二句。");
    const kept = screen.getByTestId("save-kept");
    expect(kept).toHaveTextContent("第 2 段");
    expect(kept).toHaveTextContent("我在这里改的第二句。");
    expect(api.callsTo("/update_para")).toHaveLength(1);
    expect(unloadAsks()).toBe(false);
  });
});

describe("/detail: the space bar and a click on a sentence", () => {
  it("space plays and pauses, not while typing nor on other controls; a sentence clicked while paused plays", async () => {
    let paused = true;
    const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => {
      paused = false;
      return Promise.resolve();
    });
    const pause = vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {
      paused = true;
    });
    vi.spyOn(HTMLMediaElement.prototype, "paused", "get").mockImplementation(() => paused);
    backend();
    renderApp("/detail?fileId=1");
    const items = await segments();
    const space = (target: Element = document.body) => fireEvent.keyDown(target, { key: " ", code: "Space" });

    space();
    expect(play).toHaveBeenCalledTimes(1);
    space();
    expect(pause).toHaveBeenCalledTimes(1);

    // a sentence's time clicked while paused: from there, playing
    const player = screen.getByTestId("player") as HTMLMediaElement;
    await userEvent.click(within(items[1]!).getByRole("button", { name: "从 00:04 播放" }));
    expect(player.currentTime).toBe(4);
    expect(play).toHaveBeenCalledTimes(2);
    // space on the line's own time button pauses (it does not click it again)
    space(within(items[1]!).getByRole("button", { name: "从 00:04 播放" }));
    expect(pause).toHaveBeenCalledTimes(2);
    // the search box, a line being typed in, the export menu: space is theirs
    space(screen.getByRole("searchbox", { name: "在文稿中搜索" }));
    space(screen.getByTestId("export-menu"));
    expect(play).toHaveBeenCalledTimes(2);

    // clicking a sentence's text while paused plays from there too (it does not edit it)
    await userEvent.click(within(items[2]!).getByTestId("segment-text"));
    expect(player.currentTime).toBe(9.5);
    expect(play).toHaveBeenCalledTimes(3);
    expect(within(items[2]!).queryByRole("textbox")).toBeNull();
    act(() => player.pause());
    // a line being edited (its ✎ button) takes the spaces
    await userEvent.click(within(items[2]!).getByRole("button", { name: "修改第 3 段" }));
    const box = within(items[2]!).getByRole("textbox");
    await userEvent.type(box, " ok");
    expect(box).toHaveValue("预算需要再看一遍。 ok");
    expect(play).toHaveBeenCalledTimes(3);
  });
});
