import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { envelopeError, signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";

const SEGMENTS = [
  { spkName: "说话人1", startTime: 0, endTime: 60_000, text: "先说预算和发票。" },
  { spkName: "说话人2", startTime: 60_000, endTime: 120_000, text: "预算这季度超了。" },
  { spkName: "说话人1", startTime: 120_000, endTime: 180_000, text: "然后是招聘和面试。" },
];
const CHAPTERS = {
  source: "offline",
  chapters: [
    { from: 0, to: 1, startTime: 0, endTime: 120_000, title: "预算、发票", gist: ["先说预算和发票。"] },
    { from: 2, to: 2, startTime: 120_000, endTime: 180_000, title: "招聘、面试", gist: ["然后是招聘和面试。"] },
  ],
};

function backend(chapters: () => unknown) {
  return signedInBackend({
    "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1 }),
    "GET /api/v2/audio/text/get_text": () => ({
      fileId: 1,
      fileName: "周会.mp3",
      updateTime: 1_735_787_045,
      timeLen: 180,
      language: "zh",
      asrResult: JSON.stringify(SEGMENTS),
      abstracts: "",
      audio: null,
    }),
    "GET /text/chapters": chapters,
  });
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("/detail chapters (issue 24)", () => {
  it("lists the chapters with times, titles and gists; a click plays the chapter from its start", async () => {
    const api = backend(() => CHAPTERS);
    renderApp("/detail?fileId=1&timeLen=180&fileName=周会.mp3");
    await userEvent.click(await screen.findByRole("tab", { name: "章节速览" }, { timeout: 10_000 }));
    const items = await screen.findAllByTestId("chapter");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("00:00–02:00");
    expect(items[0]).toHaveTextContent("1. 预算、发票");
    expect(items[1]).toHaveTextContent("然后是招聘和面试。");
    expect(screen.getByText(/按话题变化自动分段/)).toBeInTheDocument();
    expect(api.callsTo("/text/chapters")[0]!.url.searchParams.get("fileId")).toBe("1");

    const player = screen.getByTestId("player") as HTMLMediaElement;
    await userEvent.click(within(items[1]!).getByRole("button"));
    expect(player.currentTime).toBe(120);
  });

  it("says so when they cannot be loaded, and asks again on Retry", async () => {
    let calls = 0;
    backend(() => (++calls === 1 ? envelopeError(500, "系统错误") : CHAPTERS));
    renderApp("/detail?fileId=1&timeLen=180&fileName=周会.mp3");
    await userEvent.click(await screen.findByRole("tab", { name: "章节速览" }, { timeout: 10_000 }));
    expect(await screen.findByText("章节加载失败")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    expect(await screen.findAllByTestId("chapter")).toHaveLength(2);
  });
});
