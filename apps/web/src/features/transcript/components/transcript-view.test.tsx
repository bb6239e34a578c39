import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Segment } from "@yuelu/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { fakeApi, signInCookies } from "@/testing/fake-api.ts";
import { renderInApp } from "@/testing/render.tsx";
import type { Transcript } from "../api/get-text.ts";
import { TranscriptView } from "./transcript-view.tsx";

/**
 * A 5-hour transcript in happy-dom, which lays nothing out: every row is given 80 px and the page
 * the height of the list, so the virtualiser has something to measure. What needs a real browser
 * (frame times, smooth scrolling) is in tests/e2e/transcript-size.e2e.test.ts.
 */
const COUNT = 3_600;
const ROW = 80;
const VIEWPORT = 800;

function bigTranscript(): Transcript {
  const segments: Segment[] = Array.from({ length: COUNT }, (_, i) => ({
    spkName: `说话人${(i % 3) + 1}`,
    startTime: i * 5_000,
    endTime: i * 5_000 + 4_500,
    text: i === 3_000 ? `第 ${i + 1} 段：这里提到了独角兽项目。` : `第 ${i + 1} 段：我们继续讨论下一季度的预算安排。`,
  }));
  return {
    fileId: 9,
    fileName: "五小时.mp3",
    updateTime: 1_735_787_045,
    timeLen: COUNT * 5,
    language: "zh",
    abstracts: "",
    segments,
  } as Transcript;
}

let scrollY = 0;
const rows = () => screen.getAllByTestId("segment");
const indexes = () => [...document.querySelectorAll<HTMLElement>(".segment-row")].map((li) => Number(li.dataset.index));

function renderView() {
  return renderInApp(
    <TranscriptView
      transcript={bigTranscript()}
      audioPath="/voice_yuelu/api/v3/audio/download?fileId=9&inline=1"
      video={false}
      downloadHref="/download"
      hotWords={null}
    />,
  );
}

function scrollPage(y: number) {
  act(() => {
    scrollY = y;
    window.dispatchEvent(new Event("scroll"));
  });
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
  scrollY = 0;
  vi.spyOn(window, "scrollY", "get").mockImplementation(() => scrollY);
  vi.spyOn(window, "innerHeight", "get").mockReturnValue(VIEWPORT);
  vi.spyOn(window, "scrollTo").mockImplementation(((options: ScrollToOptions) => {
    scrollY = options.top ?? scrollY;
    window.dispatchEvent(new Event("scroll"));
  }) as typeof window.scrollTo);
  vi.spyOn(HTMLElement.prototype, "offsetHeight", "get").mockImplementation(function (this: HTMLElement) {
    return this.classList.contains("segment-row") ? ROW : 0;
  });
  vi.spyOn(document.documentElement, "scrollHeight", "get").mockReturnValue(COUNT * (ROW + 4));
  vi.spyOn(document.documentElement, "clientHeight", "get").mockReturnValue(VIEWPORT);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("a 5-hour transcript (3 600 segments)", () => {
  it("renders only the rows in view, and the rows further down once scrolled there", async () => {
    fakeApi({});
    renderView();
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    expect(rows().length).toBeLessThan(40);
    expect(indexes()[0]).toBe(0);
    expect(screen.getByText(/3600 段/)).toBeInTheDocument();

    // rows not yet seen are placed by their estimated height, so "far down" is all one can say
    scrollPage(150_000);
    await waitFor(() => expect(indexes()[0]).toBeGreaterThan(1_500));
    expect(rows().length).toBeLessThan(40);
    const seen = indexes();
    expect(seen.at(-1)! - seen[0]!).toBe(seen.length - 1); // one run of rows, no holes
  });

  it("search jumps to a match 3 000 segments down and marks it as the current one", async () => {
    fakeApi({});
    renderView();
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    await userEvent.type(screen.getByRole("searchbox"), "独角兽");
    await waitFor(() => expect(screen.getByTestId("match-count")).toHaveTextContent("1 / 1"));
    await waitFor(() => expect(indexes()).toContain(3_000));
    const row = document.querySelector<HTMLElement>('.segment-row[data-index="3000"]')!;
    expect(within(row).getByText("独角兽")).toHaveClass("current");
    expect(scrollY).toBeGreaterThan(150_000);
  });

  it("follows the playing segment, stops when the page is scrolled by hand, and comes back on request", async () => {
    fakeApi({});
    renderView();
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    const player = screen.getByTestId("player") as HTMLMediaElement;
    const play = (segment: number) =>
      act(() => {
        player.currentTime = segment * 5 + 1;
        fireEvent.timeUpdate(player);
      });

    play(1_000);
    await waitFor(() => expect(indexes()).toContain(1_000));
    expect(document.querySelector('.segment-row[data-index="1000"] [aria-current="true"]')).not.toBeNull();
    expect(scrollY).toBeGreaterThan(50_000);

    // the reader scrolls away: the playhead no longer pulls the page
    fireEvent.wheel(window);
    scrollPage(5_000);
    play(1_500);
    expect(scrollY).toBe(5_000);
    const back = await screen.findByTestId("follow-playing");
    expect(back).toHaveTextContent("回到正在播放的段落");
    await userEvent.click(back);
    await waitFor(() => expect(indexes()).toContain(1_500));
    expect(scrollY).toBeGreaterThan(80_000);
    expect(screen.queryByTestId("follow-playing")).toBeNull();
  });

  it("keeps a line being edited mounted when it is scrolled out of view, and saves it", async () => {
    const api = fakeApi({ "POST /text/update_para": () => null });
    renderView();
    await waitFor(() => expect(rows().length).toBeGreaterThan(5));
    await userEvent.click(within(rows()[1]!).getByRole("button", { name: "修改第 2 段" }));
    const box = screen.getByRole("textbox", { name: "修改第 2 段" });
    await userEvent.type(box, "（补充）");

    scrollPage(150_000);
    await waitFor(() => expect(indexes()[1]).toBeGreaterThan(1_500));
    expect(indexes()[0]).toBe(1);
    expect(indexes()).not.toContain(0);
    expect(screen.getByRole("textbox", { name: "修改第 2 段" })).toBe(box);
    act(() => box.blur());
    await waitFor(() => expect(api.callsTo("/update_para")).toHaveLength(1));
    expect(api.callsTo("/update_para")[0]!.body).toEqual({
      fileId: 9,
      index: 1,
      text: "第 2 段：我们继续讨论下一季度的预算安排。（补充）",
    });
    // no longer edited: the row leaves the DOM with the others out of view
    scrollPage(150_100);
    await waitFor(() => expect(indexes()).not.toContain(1));
  });
});
