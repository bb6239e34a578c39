import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLang } from "../lib/i18n.ts";
import { fakeApi } from "../testing/fake-api.ts";
import { renderApp } from "../testing/render.tsx";
import { documentTitle } from "./document-title.tsx";

beforeEach(() => {
  setLang("zh");
  fakeApi({
    "GET /api/v3/user/virtual_login": () => ({ tempCode: "t", firstSeen: true }),
    "GET /help_document/get_title": () => [],
  });
});
afterEach(() => vi.unstubAllGlobals());

describe("routes (spec §2)", () => {
  it.each([
    ["/audio", "/audio-list"],
    ["/voiceClone", "/textToVoice"],
    ["/voice-library-layout", "/voice-library"],
    // one page, not two copies: /textToVoice is where /voiceClone leads (issue 43)
    ["/text-to-speech", "/textToVoice"],
    ["/home", "/transaudio"],
    ["/no/such/page", "/404"],
    ["/audio-list/extra", "/404"],
  ])("%s redirects to %s", async (from, to) => {
    const { router } = renderApp(from);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it.each([
    "/",
    "/detail",
    "/audio-list",
    "/recycle-bin",
    "/transaudio",
    "/personalInfo",
    "/helpDocument",
    "/textToVoice",
    "/myVoice",
    "/songConversion",
    "/song-conversion",
    "/voice-library",
    "/order",
    "/vip",
    "/tranSatis",
    "/people",
    "/404",
  ])("%s renders without redirecting", async (path) => {
    const { router } = renderApp(path);
    await waitFor(() => expect(document.title).not.toBe(""));
    expect(router.state.location.pathname).toBe(path);
  });

  it("keeps the query and hash through a redirect", async () => {
    const { router } = renderApp("/text-to-speech?from=library#top");
    await waitFor(() => expect(router.state.location.pathname).toBe("/textToVoice"));
    expect(router.state.location.search).toBe("?from=library");
    expect(router.state.location.hash).toBe("#top");
  });

  it("shows the 404 page for unknown paths", async () => {
    renderApp("/what");
    expect(await screen.findByTestId("not-found")).toHaveTextContent("页面不存在");
    await waitFor(() => expect(document.title).toBe("页面不存在 - 悦录"));
  });

  it("asks anonymous visitors to sign in on personal pages", async () => {
    renderApp("/audio-list");
    expect(await screen.findByText("登录后查看")).toBeInTheDocument();
  });
});

describe("document title", () => {
  const t = (k: string) =>
    ({
      "brand.name": "悦录",
      "titles.landing": "悦录 - 免费在线录音转文字",
      "titles.vip": "会员中心",
      "titles.detail": "语音详情",
    })[k] ?? k;
  it("follows the route's title", () => {
    expect(documentTitle(t, "landing", "/", "")).toBe("悦录 - 免费在线录音转文字");
    expect(documentTitle(t, "vip", "/vip", "")).toBe("会员中心 - 悦录");
  });
  it("uses /detail's fileName query", () => {
    expect(documentTitle(t, "detail", "/detail", "?fileId=1&fileName=%E5%91%A8%E4%BC%9A.mp3")).toBe("周会.mp3 - 悦录");
    expect(documentTitle(t, "detail", "/detail", "?fileId=1")).toBe("语音详情 - 悦录");
  });
  it("switches with the language", async () => {
    renderApp("/vip");
    await waitFor(() => expect(document.title).toBe("会员中心 - 悦录"));
    setLang("en");
    await waitFor(() => expect(document.title).toBe("Membership center - Yuelu"));
  });
});
