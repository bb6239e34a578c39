import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "@/lib/i18n.ts";
import { fakeApi } from "@/testing/fake-api.ts";
import { renderApp } from "@/testing/render.tsx";

const HAN = /\p{Script=Han}/u;

/** The sample transcript beside the hero (decoration, hidden from screen readers). */
async function sampleLines(): Promise<string[]> {
  await screen.findByTestId("cta-upload");
  const lines = [...document.querySelectorAll(".mock-lines p")].map((p) => p.textContent ?? "");
  expect(lines).toHaveLength(3);
  return lines;
}

beforeEach(() => {
  fakeApi({ "GET /api/v3/user/virtual_login": () => ({ tempCode: "t", firstSeen: true }) });
});
afterEach(() => {
  setLang("zh");
  vi.unstubAllGlobals();
});

describe("the landing page's sample transcript (issue 11 item 8)", () => {
  it("is in Chinese, with Chinese speaker labels, in Chinese", async () => {
    setLang("zh");
    renderApp("/");
    const lines = await sampleLines();
    expect(lines[0]).toBe("说话人1 00:00:03 欢迎大家参加今天的周会。");
    expect(lines[1]!.startsWith("说话人2")).toBe(true);
  });

  it("is wholly in English, speaker labels too, in English — and follows a switch without a reload", async () => {
    setLang("en");
    renderApp("/");
    const lines = await sampleLines();
    expect(lines[0]).toBe("Speaker 1 00:00:03 Welcome, everyone, to this week's meeting.");
    expect(lines[1]!.startsWith("Speaker 2")).toBe(true);
    for (const line of lines) expect(line).not.toMatch(HAN);
    expect(document.querySelector(".hero")?.textContent).not.toMatch(HAN);

    setLang("zh");
    await waitFor(() => expect(document.querySelector(".mock-lines p")?.textContent).toMatch(/^说话人1/));
  });
});

describe("the landing page's limits (issue 43)", () => {
  it("states the upload box's limits, from the contracts' numbers, in both languages", async () => {
    setLang("zh");
    renderApp("/");
    const limits = await screen.findByTestId("landing-limits");
    expect(limits).toHaveTextContent("等 23 种格式；单个文件最大 1 GB、5 小时，每个文件最长转写 3 小时。");
    setLang("en");
    await waitFor(() =>
      expect(limits).toHaveTextContent(
        "23 formats incl. wav, mp3, m4a, mp4, webm, opus and flac; files up to 1 GB and 5 hours; transcription up to 3 hours per file.",
      ),
    );
  });
});
