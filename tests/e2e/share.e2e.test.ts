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
  server = await startServer();
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
    await page.getByTestId("export-menu").click();
    await page.getByTestId("share-link").click();
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
    await page.getByTestId("export-menu").click();
    await page.getByTestId("share-link").click();
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
});
