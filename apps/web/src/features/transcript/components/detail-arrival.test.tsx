import { cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { signInCookies } from "@/testing/fake-api.ts";
import { record, signedInBackend } from "@/testing/records-fixtures.ts";
import { renderApp } from "@/testing/render.tsx";

/** /detail?…&t=&q= — arriving from a search hit (issue 23): seek, play, the segment active, the words marked. */

const SEGMENTS = [
  { spkName: "说话人1", startTime: 0, endTime: 4000, text: "大家好，今天开会讨论预算。" },
  { spkName: "说话人2", startTime: 4000, endTime: 9000, text: "好的，预算已经准备好了。" },
  { spkName: "说话人1", startTime: 9500, endTime: 12000, text: "预算需要再看一遍。" },
];

function backend() {
  return signedInBackend({
    "GET /api/v3/audio/record/get_record_by_id": () => record({ fileId: 1 }),
    "GET /api/v2/audio/text/get_text": () => ({
      fileId: 1,
      fileName: "录音1.mp3",
      updateTime: 1_735_787_045,
      timeLen: 12,
      language: "zh",
      asrResult: JSON.stringify(SEGMENTS),
      abstracts: "",
      audio: null,
    }),
  });
}

beforeEach(() => {
  setLang("zh");
  signInCookies();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("/detail from a search hit", () => {
  it("seeks to t, asks to play, makes that segment active and its match the current one", async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
    backend();
    renderApp(`/detail?fileId=1&fileName=${encodeURIComponent("录音1.mp3")}&t=9500&q=${encodeURIComponent("预算")}`);
    const items = await screen.findAllByTestId("segment", {}, { timeout: 3000 });
    await waitFor(() => expect(items[2]).toHaveClass("active"));
    expect(items[2]).toHaveClass("has-current-match");
    // every occurrence is marked, the first one at or after t is the current one
    expect(items[0]!.querySelector("mark")).toHaveTextContent("预算");
    expect(screen.getByTestId("match-count")).toHaveTextContent("3");
    const player = screen.getByTestId("player") as HTMLMediaElement;
    expect(player.currentTime).toBe(9.5);
    expect(play).toHaveBeenCalled();
  });

  it("without t and q the page opens as before: nothing active, nothing marked, no play", async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
    backend();
    renderApp("/detail?fileId=1&timeLen=12&fileName=录音1.mp3");
    const items = await screen.findAllByTestId("segment", {}, { timeout: 3000 });
    expect(items.some((i) => i.classList.contains("active"))).toBe(false);
    expect(document.querySelector("mark")).toBeNull();
    expect(play).not.toHaveBeenCalled();
  });
});
