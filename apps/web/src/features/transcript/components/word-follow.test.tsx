import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import type { FakeCall } from "@/testing/fake-api.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";

/** Issue 45: on /detail the word being spoken is marked as the record plays, and a click on a word plays from it. */

/** Words `ms` apart from `start`, one a character (Chinese) or one a run between spaces. */
const timed = (words: string[], start: number, step: number) =>
  words.map((text, i) => ({ text, startTime: start + i * step, endTime: start + (i + 1) * step }));

const SEGMENTS = [
  {
    spkName: "说话人1",
    startTime: 0,
    endTime: 4000,
    text: "大家好，今天开会。",
    words: timed(["大", "家", "好，", "今", "天", "开", "会。"], 200, 500),
  },
  {
    spkName: "说话人2",
    startTime: 4000,
    endTime: 9000,
    text: "Budget is ready, thanks.",
    words: timed(["Budget", "is", "ready,", "thanks."], 4200, 1000),
  },
  // edited after it was transcribed: its words no longer tell its text
  {
    spkName: "说话人1",
    startTime: 9500,
    endTime: 12000,
    text: "预算需要再看两遍。",
    words: timed([..."预算需要再看一遍。"], 9500, 250),
  },
];

function textDetail(withWords: boolean) {
  return {
    fileId: 1,
    fileName: "录音1.mp3",
    updateTime: 1_735_787_045,
    timeLen: 15,
    language: "zh",
    asrResult: JSON.stringify(withWords ? SEGMENTS : SEGMENTS.map(({ words: _, ...s }) => s)),
    abstracts: "",
    audio: null,
    version: 2,
  };
}

function backend() {
  return signedInBackend({
    "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1 }),
    "GET /api/v2/audio/text/get_text": (call: FakeCall) => textDetail(call.url.searchParams.get("withWords") === "1"),
    "POST /text/update_para": () => ({ version: 3 }),
  });
}

const segments = () => screen.findAllByTestId("segment", {}, { timeout: 10_000 });
const spoken = () => [...document.querySelectorAll(".word.spoken")].map((w) => w.textContent);
/** The rows once their word times are read (after the page shows). */
async function timedRows() {
  const items = await segments();
  await waitFor(() => expect(items[0]!.querySelectorAll(".word")).toHaveLength(7));
  return items;
}

let paused = true;
let play: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  setLang("zh");
  signInCookies();
  paused = true;
  play = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => {
    paused = false;
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, "paused", "get").mockImplementation(() => paused);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("/detail: following and seeking by word", () => {
  it("reads the word times after the page shows, once, and puts each word in a span of its own", async () => {
    const api = backend();
    renderApp("/detail?fileId=1");
    const items = await timedRows();
    const reads = api.callsTo("/get_text").map((c) => c.url.searchParams.get("withWords"));
    // the page's own read first (without words: it is 15× smaller), the words after
    expect(reads).toEqual([null, "1"]);
    expect([...items[0]!.querySelectorAll(".word")].map((w) => w.textContent)).toEqual([
      "大",
      "家",
      "好，",
      "今",
      "天",
      "开",
      "会。",
    ]);
    expect([...items[1]!.querySelectorAll(".word")].map((w) => w.textContent)).toEqual([
      "Budget",
      "is",
      "ready,",
      "thanks.",
    ]);
    // the text reads as before
    expect(within(items[1]!).getByTestId("segment-text")).toHaveTextContent("Budget is ready, thanks.");
    // an edited line whose words no longer tell it: no words (the line is followed whole)
    expect(items[2]!.querySelectorAll(".word")).toHaveLength(0);
    expect(within(items[2]!).getByTestId("segment-text")).toHaveTextContent("预算需要再看两遍。");
  });

  it("marks the word under the playhead in the playing line, and moves it as the record plays", async () => {
    backend();
    renderApp("/detail?fileId=1");
    const items = await timedRows();
    const player = screen.getByTestId("player") as HTMLMediaElement;
    const at = (seconds: number) =>
      act(() => {
        player.currentTime = seconds;
        fireEvent.timeUpdate(player);
      });

    at(1.3); // 大 200–700, 家 700–1200, 好， 1200–1700
    await waitFor(() => expect(spoken()).toEqual(["好，"]));
    expect(items[0]).toHaveAttribute("aria-current", "true");
    at(3.3);
    await waitFor(() => expect(spoken()).toEqual(["会。"]));
    at(6.5); // the next line: ready, (6200–7200)
    await waitFor(() => expect(spoken()).toEqual(["ready,"]));
    expect(items[1]).toHaveAttribute("aria-current", "true");
    expect(items[1]!.querySelector(".word.spoken")).not.toBeNull();

    // the edited line: followed whole, no word marked
    at(10);
    await waitFor(() => expect(items[2]).toHaveAttribute("aria-current", "true"));
    expect(spoken()).toEqual([]);
  });

  it("follows frame by frame while playing, not only on timeupdate", async () => {
    backend();
    renderApp("/detail?fileId=1");
    await timedRows();
    const player = screen.getByTestId("player") as HTMLMediaElement;
    player.currentTime = 4.5;
    act(() => {
      paused = false;
      fireEvent.play(player);
    });
    await waitFor(() => expect(spoken()).toEqual(["Budget"]));
    // no timeupdate: the next animation frame reads the position
    player.currentTime = 5.4;
    await waitFor(() => expect(spoken()).toEqual(["is"]));
    act(() => {
      paused = true;
      fireEvent.pause(player);
    });
  });

  it("a click on a word plays from its start; elsewhere on the line from the line's start; neither edits", async () => {
    backend();
    renderApp("/detail?fileId=1");
    const items = await timedRows();
    const player = screen.getByTestId("player") as HTMLMediaElement;

    await userEvent.click(within(items[1]!).getByText("ready,"));
    expect(player.currentTime).toBe(6.2);
    expect(play).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(spoken()).toEqual(["ready,"]));
    expect(within(items[1]!).queryByRole("textbox")).toBeNull();

    await userEvent.click(within(items[0]!).getByText("天"));
    expect(player.currentTime).toBe(2.2);
    await waitFor(() => expect(spoken()).toEqual(["天"]));

    // a line without word times: from its start
    await userEvent.click(within(items[2]!).getByTestId("segment-text"));
    expect(player.currentTime).toBe(9.5);
    expect(items.map((row) => within(row).queryByRole("textbox"))).toEqual([null, null, null]);
  });

  it("words selected with the mouse (to make a clip) neither play nor edit", async () => {
    backend();
    renderApp("/detail?fileId=1");
    const items = await timedRows();
    const player = screen.getByTestId("player") as HTMLMediaElement;
    const text = within(items[1]!).getByTestId("segment-text");
    const words = text.querySelectorAll(".word");
    // a drag over "is ready,": the press ends in a click on the line, with the words selected
    const range = document.createRange();
    range.setStart(words[1]!.firstChild!, 0);
    range.setEnd(words[2]!.firstChild!, 3);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
    fireEvent.click(words[2]!, { detail: 1 });
    expect(player.currentTime).toBe(0);
    expect(play).not.toHaveBeenCalled();
    expect(within(items[1]!).queryByRole("textbox")).toBeNull();
    expect(String(document.getSelection())).toBe("is rea");
  });

  it("edits by double-click, by Enter on the text, or by the line's ✎ button", async () => {
    backend();
    renderApp("/detail?fileId=1");
    const items = await timedRows();

    await userEvent.dblClick(within(items[1]!).getByText("ready,"));
    const box = within(items[1]!).getByRole("textbox", { name: "修改第 2 段" });
    expect(box).toHaveValue("Budget is ready, thanks.");
    await userEvent.keyboard("{Escape}");

    within(items[0]!).getByTestId("segment-text").focus();
    await userEvent.keyboard("{Enter}");
    expect(within(items[0]!).getByRole("textbox", { name: "修改第 1 段" })).toHaveFocus();
    await userEvent.keyboard("{Escape}");

    await userEvent.click(within(items[2]!).getByRole("button", { name: "修改第 3 段" }));
    expect(within(items[2]!).getByRole("textbox", { name: "修改第 3 段" })).toHaveValue("预算需要再看两遍。");
  });

  it("search marks and word spans together: a match spanning words is one mark, and its words still play", async () => {
    backend();
    renderApp("/detail?fileId=1");
    const items = await timedRows();
    await userEvent.type(screen.getByRole("searchbox", { name: "在文稿中搜索" }), "s rea");
    await waitFor(() => expect(screen.getByTestId("match-count")).toHaveTextContent("1 / 1"));
    const marks = items[1]!.querySelectorAll("mark");
    expect(marks).toHaveLength(1);
    expect(marks[0]).toHaveTextContent("s rea");
    expect(within(items[1]!).getByTestId("segment-text")).toHaveTextContent("Budget is ready, thanks.");
    // "ready," is two pieces now (inside the mark and after it), one word: either plays from its start
    const ready = [...items[1]!.querySelectorAll<HTMLElement>('.word[data-word="2"]')];
    expect(ready.map((w) => w.textContent)).toEqual(["rea", "dy,"]);
    await userEvent.click(ready[1]!);
    expect((screen.getByTestId("player") as HTMLMediaElement).currentTime).toBe(6.2);
    await waitFor(() => expect(spoken()).toEqual(["rea", "dy,"]));
  });
});
