import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentWav, storeTranscript } from "./helpers/big-transcript.ts";
import { contextIn, launchBrowser, SCREENSHOTS } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * Issue 23's share links as an outsider meets them, in real Chromium: the owner makes a link in the
 * share dialog; a fresh browser without any cookie opens it at phone width, reads the transcript and
 * clicks a line to seek the player; a guessed link and a revoked one say so.
 */

let server: RunningServer;
let browser: Browser;
const PHONE_375 = { width: 375, height: 812 };
const SEGMENTS = [
  { spkName: "说话人1", startTime: 0, endTime: 5000, text: "欢迎参加季度复盘会议。", words: [] },
  { spkName: "说话人2", startTime: 5000, endTime: 12_000, text: "这个季度的转写准确率提升明显。", words: [] },
  { spkName: "说话人1", startTime: 12_000, endTime: 20_000, text: "好的，下周正式发布。", words: [] },
];

beforeAll(async () => {
  // A clip is cut by a worker: its own queues in its own database, with the workers in process (as
  // records.e2e explains), so no shared Redis.
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer({ WORKER_MODE: "embedded" });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("share links", () => {
  it("made in the dialog, opened by a stranger's fresh browser, seeks on click; revoked and guessed links say so", async () => {
    // the owner on a phone: the dialog must fit 375 px
    const owner = await contextIn(browser, PHONE_375, "zh");
    await signInNewUser(owner, server.baseUrl, "13900023001");
    const upload = await owner.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
      multipart: { file: { name: "季度复盘.wav", mimeType: "audio/wav", buffer: silentWav(20) } },
    });
    const uploaded = (await upload.json()) as { status_code: number; data: { fileId: number } };
    expect(uploaded.status_code).toBe(1);
    const fileId = uploaded.data.fileId;
    await storeTranscript(server.query, fileId, SEGMENTS, 20);

    const page = await owner.newPage();
    await page.goto(`${server.baseUrl}/detail?fileId=${fileId}`);
    // Share is a button in the page's header, beside Export (issue 43), not an item inside it
    const share = page.locator(".detail-head").getByTestId("share-link");
    await share.waitFor();
    expect(await share.textContent()).toBe("分享");
    expect(await page.locator(".detail-head").getByTestId("export-menu").count()).toBe(1);
    await share.click();
    const dialog = page.getByTestId("share-dialog");
    await dialog.getByText("还没有分享链接").waitFor();
    await dialog.getByTestId("share-expiry-30").check();
    await dialog.getByTestId("share-create").click();
    const url = ((await dialog.getByTestId("share-new-url").textContent()) ?? "").trim();
    expect(url).toMatch(/\/s\/[\w-]{43}$/);
    await dialog.locator("[data-testid^=share-link-]").first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE_375.width);
    await page.screenshot({ path: `${SCREENSHOTS}/share-dialog-375.png` });

    // a stranger: a new context, no cookies, English browser
    const stranger = await contextIn(browser, PHONE_375, "en");
    expect(await stranger.cookies()).toEqual([]);
    const visit = await stranger.newPage();
    const res = await visit.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["x-robots-tag"]).toContain("noindex");
    expect(await visit.locator("html").getAttribute("lang")).toBe("en");
    expect(await visit.locator('meta[property="og:title"]').getAttribute("content")).toBe("季度复盘.wav");
    expect(await visit.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex,nofollow");
    const lines = visit.locator("#segments");
    await lines.getByText("这个季度的转写准确率提升明显。", { exact: true }).waitFor();
    await lines.getByText("Speaker 2").waitFor();
    // no SPA bundle: the page is its own
    expect(await visit.locator('script[src*="/assets/"]').count()).toBe(0);
    expect(await visit.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await visit.screenshot({ path: `${SCREENSHOTS}/share-page-375.png`, fullPage: true });

    const audio = visit.locator("audio#player");
    await visit.waitForFunction(() => (document.querySelector("audio") as HTMLAudioElement).readyState >= 1);
    await visit.locator('li[data-start="12"]').click();
    await visit.waitForFunction(
      () => Math.abs((document.querySelector("audio") as HTMLAudioElement).currentTime - 12) < 1.5,
    );
    expect(await audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(11.5);
    await expect.poll(() => visit.locator('li[data-start="12"]').getAttribute("class")).toContain("current");

    // the owner sees the view, then revokes the link
    await page.keyboard.press("Escape");
    await share.click();
    const item = dialog.locator("[data-testid^=share-link-]").first();
    await item.getByText("浏览 1 次").waitFor();
    await item.locator("[data-testid^=share-revoke-]").click();
    await page.getByTestId("confirm").click();
    await dialog.getByText("还没有分享链接").waitFor();

    const gone = await visit.goto(url);
    expect(gone?.status()).toBe(410);
    await visit.getByText("The owner revoked this link.").waitFor();
    expect(await visit.content()).not.toContain("季度复盘");

    const guessed = await visit.goto(`${server.baseUrl}/s/${randomBytes(32).toString("base64url")}`);
    expect(guessed?.status()).toBe(404);
    await visit.getByText("Link not found").waitFor();
    await stranger.close();
    await owner.close();
  });

  it("a clip made by selecting words (issue 45): Clip by the selection, played and shared as its own link", async () => {
    const owner = await contextIn(browser, { width: 1280, height: 800 }, "zh");
    await signInNewUser(owner, server.baseUrl, "13900023002");
    const upload = await owner.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
      multipart: { file: { name: "剪辑.wav", mimeType: "audio/wav", buffer: silentWav(20) } },
    });
    const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
    const timed = [
      {
        ...SEGMENTS[1]!,
        words: [...SEGMENTS[1]!.text].map((c, i) => ({ text: c, startTime: 5000 + i * 400, endTime: 5400 + i * 400 })),
      },
    ];
    // one line with word times: "这个季度的转写准确率提升明显。" (14 characters, each a word, 400 ms apart)
    timed[0]!.words = timed[0]!.words.slice(0, 13).concat({ text: "显。", startTime: 10_200, endTime: 10_600 });
    await storeTranscript(server.query, fileId, timed, 20);
    const page = await owner.newPage();
    await page.goto(`${server.baseUrl}/detail?fileId=${fileId}`);
    const text = page.locator(".segment-row .segment-text").first();
    // the word times arrive after the first paint and split the line into words: a selection made before
    // that points at text nodes the re-render removes (the browser drops it), so wait for the words
    await text.locator(".word[data-word]").first().waitFor();
    // select "季度的转写" (characters 2–6) as a mouse would
    await text.evaluate((el) => {
      // the line's text nodes (words or search marks may split it): characters 2 and 7 of its text
      const at = (offset: number): [Node, number] => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let left = offset;
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const length = n.textContent?.length ?? 0;
          if (left <= length) return [n, left];
          left -= length;
        }
        throw new Error("no such character");
      };
      const range = document.createRange();
      range.setStart(...at(2));
      range.setEnd(...at(7));
      const selection = document.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    });
    const make = page.getByTestId("clip-make");
    await make.waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/clip-selection.png` });
    expect(await make.textContent()).toBe("剪辑");
    await make.click();
    const dialog = page.getByTestId("clip-dialog");
    await dialog.getByText("季度的转写").waitFor();
    // the clip is the words' stretch: 5 800 ms → 7 800 ms, 2 s
    await page.waitForFunction(
      () => (document.querySelector("[data-testid=clip-media]") as HTMLMediaElement)?.duration > 0,
    );
    const seconds = await dialog.getByTestId("clip-media").evaluate((a: HTMLMediaElement) => a.duration);
    await page.screenshot({ path: `${SCREENSHOTS}/clip-dialog.png` });
    expect(Math.abs(seconds - 2)).toBeLessThan(0.1);
    await dialog.getByTestId("clip-share").click();
    const url = (await dialog.getByTestId("clip-link").inputValue()).trim();
    expect(url).toMatch(/\/s\/[\w-]{43}$/);
    const stranger = await contextIn(browser, PHONE_375, "zh");
    const visit = await stranger.newPage();
    expect((await visit.goto(url))?.status()).toBe(200);
    await visit.locator("#segments").getByText("季度的转写", { exact: true }).waitFor();
    expect(await visit.content()).not.toContain("提升明显");
    await stranger.close();
    await owner.close();
  });
});
