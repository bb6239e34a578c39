import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { silentWav, storeTranscript } from "./helpers/big-transcript.ts";
import { contextIn, DESKTOP, launchBrowser, SCREENSHOTS } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * Issue 24's AI notes on /detail, in real Chromium: with a (fake) language model, AI chapters (a click seeks),
 * a translation shown side by side, and a question whose answer cites a segment (its chip seeks there); then on
 * a server with no model: the offline chapters, one line saying AI is off (no translate control above the
 * transcript), passages labelled as passages. Screenshots at 375 px and on the desktop.
 */

const PHONE_375 = { width: 375, height: 812 };
const TOPICS = [
  ["预算", "这个季度的预算超了百分之二十，财务要重新核对发票。"],
  ["招聘", "招聘方面，前端岗位还缺两个人，面试安排在下周。"],
  ["上线", "新版本计划月底上线，测试环境已经部署好了。"],
] as const;
/** 24 segments of 10 s, 8 per topic, two speakers taking turns. */
const SEGMENTS = Array.from({ length: 24 }, (_, i) => {
  const [word, line] = TOPICS[Math.floor(i / 8)]!;
  return {
    spkName: i % 2 === 0 ? "张三" : "李四",
    startTime: i * 10_000,
    endTime: i * 10_000 + 9_000,
    text: i % 8 === 0 ? line : `关于${word}，第${(i % 8) + 1}点补充：${word}的事情要跟进。`,
    words: [],
  };
});
const SECONDS = 240;

const playerTime = (page: Page) => page.getByTestId("player").evaluate((el) => (el as HTMLMediaElement).currentTime);
/** How far any rendered transcript row reaches into the next one (px; 0 when none does). */
const rowOverlap = (page: Page) =>
  page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll("[data-testid=segment]"), (el) => el.getBoundingClientRect());
    return Math.max(0, ...rows.slice(1).map((r, i) => rows[i]!.bottom - r.top));
  });
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A signed-in user with one transcribed record; answers the /detail page open on it. */
async function recordPage(server: RunningServer, context: BrowserContext, phone: string): Promise<Page> {
  await signInNewUser(context, server.baseUrl, phone);
  const upload = await context.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
    multipart: { file: { name: "周会.wav", mimeType: "audio/wav", buffer: silentWav(SECONDS) } },
  });
  const uploaded = (await upload.json()) as { status_code: number; data: { fileId: number } };
  expect(uploaded.status_code).toBe(1);
  const fileId = uploaded.data.fileId;
  await storeTranscript(server.query, fileId, SEGMENTS, SECONDS);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/detail?fileId=${fileId}&fileName=${encodeURIComponent("周会.wav")}`);
  await page.getByTestId("segment").first().waitFor();
  return page;
}

async function ask(page: Page, question: string) {
  await page.getByRole("tab", { name: "问问" }).click();
  await page.getByTestId("ask-input").fill(question);
  await page.getByTestId("ask-submit").click();
  await page.getByTestId("passages").waitFor();
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("AI notes with a language model", () => {
  let fake: FakeLlm;
  let server: RunningServer;
  beforeAll(async () => {
    fake = await startFakeLlm();
    server = await startServer({ WORKER_MODE: "embedded", LLM_URL: fake.url, LLM_MODEL: "fake-model" });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("makes AI chapters (a click seeks), a side-by-side translation, and a cited answer whose chip seeks", async () => {
    const context = await contextIn(browser, DESKTOP, "zh");
    const page = await recordPage(server, context, "13900024101");

    // chapters: offline first, then written by the model
    await page.getByRole("tab", { name: "章节速览" }).click();
    await page.getByTestId("chapter").first().waitFor();
    expect(await page.getByTestId("ai-note").first().textContent()).toContain("fake-model");
    await page.getByTestId("ai-chapters").click();
    await page.getByTestId("chapters-source").filter({ hasText: "AI 生成" }).waitFor({ timeout: 30_000 });
    const chapters = page.getByTestId("chapter");
    expect(await chapters.first().textContent()).toContain("话题");
    await chapters.nth(1).getByRole("button").click();
    const second = Number(/话题(\d+)/.exec((await chapters.nth(1).textContent()) ?? "")?.[1]);
    await expect.poll(() => playerTime(page)).toBe(SEGMENTS[second]!.startTime / 1000);
    expect(fake.requests.some((r) => r.task === "chapters")).toBe(true);

    // translation: English beside each Chinese segment, with the same times
    await page.getByTestId("ai-translation").click();
    await page.getByRole("button", { name: "对照" }).click({ timeout: 30_000 });
    const firstTranslation = page.getByTestId("segment-translation").first();
    await firstTranslation.waitFor();
    expect(await firstTranslation.textContent()).toMatch(/^EN: /);
    await page.screenshot({ path: `${SCREENSHOTS}/notes-desktop.png` });

    // a question: the passages at once, then the answer citing [1]; its chip plays the cited segment
    await ask(page, "预算超了多少？");
    expect(await page.getByTestId("passages").textContent()).toContain("相关段落（原文摘录，不是回答）");
    const answer = page.getByTestId("answer");
    await answer.waitFor({ timeout: 30_000 });
    const chip = answer.getByRole("button", { name: /播放引用 1/ });
    const cited = /（(\d\d):(\d\d)）/.exec((await chip.getAttribute("aria-label")) ?? "")!;
    const citedMs = (Number(cited[1]) * 60 + Number(cited[2])) * 1000;
    await chip.click();
    // it plays from there (silence, so the browser allows it): the playhead is at the cited moment or just past
    await expect
      .poll(async () => {
        const at = await playerTime(page);
        return at >= citedMs / 1000 && at < citedMs / 1000 + 4;
      })
      .toBe(true);
    const index = SEGMENTS.findIndex((s) => s.startTime === citedMs);
    await expect
      .poll(() => page.locator(`[data-testid=segment][aria-current=true]`).textContent())
      .toContain(SEGMENTS[index]!.text);
    await page.screenshot({ path: `${SCREENSHOTS}/notes-ask-desktop.png` });

    // at phone width nothing runs off the side
    await page.setViewportSize(PHONE_375);
    await page.getByTestId("translation-bar").scrollIntoViewIfNeeded();
    await expect.poll(() => noSideScroll(page)).toBe(0);
    // the translation under each line at this width: the rows grew and none overlaps the next
    await expect.poll(() => rowOverlap(page)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: `${SCREENSHOTS}/notes-375.png` });
    // at this width the notes are a pane of their own, one tap from the top instead of under the transcript
    expect(await page.getByTestId("ask").isVisible()).toBe(false);
    await page.getByTestId("detail-panes").getByRole("button").nth(1).click();
    await page.getByTestId("ask").waitFor();
    expect(await page.getByTestId("segment").first().isVisible()).toBe(false);
    await expect.poll(() => noSideScroll(page)).toBe(0);
    await page.getByTestId("ask").evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
    await page.screenshot({ path: `${SCREENSHOTS}/notes-ask-375.png` });
    await context.close();
  });
});

describe("AI notes without a language model", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps the offline chapters, says once that AI is off (never above the transcript), labels passages as passages", async () => {
    const context = await contextIn(browser, PHONE_375, "zh");
    const page = await recordPage(server, context, "13900024102");

    // no translate control between the player and the transcript, and no variable names (issue 41)
    expect(await page.getByTestId("translation-bar").count()).toBe(0);
    expect(await page.getByTestId("ai-translation").count()).toBe(0);
    expect(await page.locator("body").innerText()).not.toMatch(/LLM_|大语言模型/);

    await page.getByRole("button", { name: "摘要 · 章节 · 问答" }).click();
    const off = page.getByTestId("ai-off");
    await off.waitFor();
    expect(await off.innerText()).toMatch(/AI 功能未开启[\s\S]*开启后可生成摘要、章节、翻译和问答/);
    expect(await page.getByTestId("ai-off").count()).toBe(1);
    await page.getByRole("tab", { name: "章节速览" }).click();
    await page.getByTestId("chapter").first().waitFor();
    expect(await page.getByTestId("chapters-source").textContent()).toContain("自动分段");
    expect(await page.getByTestId("chapters").textContent()).not.toContain("AI 功能未开启");
    expect(await page.getByTestId("ai-chapters").count()).toBe(0);

    await ask(page, "招聘");
    const passages = page.getByTestId("passages");
    expect(await passages.textContent()).toContain("相关段落（原文摘录，不是回答）");
    expect(await page.getByTestId("passage").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("ask").textContent()).toContain("AI 功能未开启，只列出相关段落。");
    expect(await page.getByTestId("answer").count()).toBe(0);
    await expect.poll(() => noSideScroll(page)).toBe(0);
    await page.getByTestId("ask").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/notes-offline-375.png` });
    // a chapter tapped in the notes pane brings the transcript back, at that chapter
    await page.getByRole("tab", { name: "章节速览" }).click();
    await page.getByTestId("chapter").first().getByRole("button").first().click();
    await page.getByTestId("segment").first().waitFor();
    expect(await page.getByTestId("chapters").isVisible()).toBe(false);
    await page.setViewportSize(DESKTOP);
    // wider, both show side by side whatever the pane
    await page.getByTestId("chapters").waitFor();
    expect(await page.getByTestId("detail-panes").isVisible()).toBe(false);
    await page.screenshot({ path: `${SCREENSHOTS}/notes-offline-desktop.png` });
    await context.close();
  });
});
