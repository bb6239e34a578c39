import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentWav, storeTranscript } from "./helpers/big-transcript.ts";
import { contextIn, DESKTOP, launchBrowser, SCREENSHOTS } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { callApi, signInNewUser } from "./helpers/session.ts";

/**
 * Issue 23's search, in real Chromium: a query typed on /search finds the record, its hit shows the
 * time and the marked word; clicking the hit opens /detail at that moment with the segment active
 * and the word marked. At phone width and on the desktop.
 */

let server: RunningServer;
let browser: Browser;
const PHONE_375 = { width: 375, height: 812 };
// Enough lines before the hit that it starts below the fold: arriving must scroll to it.
const SEGMENTS = [
  ...Array.from({ length: 60 }, (_, i) => ({
    spkName: "说话人1",
    startTime: i * 5000,
    endTime: i * 5000 + 5000,
    text: `第${i + 1}段，普通的开场内容。`,
    words: [],
  })),
  { spkName: "说话人2", startTime: 300_000, endTime: 306_000, text: "我们把独角兽计划放到下个季度。", words: [] },
  { spkName: "说话人1", startTime: 306_000, endTime: 312_000, text: "好的，散会。", words: [] },
];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("search", () => {
  for (const [label, viewport] of [
    ["375", PHONE_375],
    ["desktop", DESKTOP],
  ] as const) {
    it(`finds a hit and opens /detail playing from it, the segment and word marked (${label})`, async () => {
      const context = await contextIn(browser, viewport, "zh");
      await signInNewUser(context, server.baseUrl, label === "375" ? "13900023101" : "13900023102");
      const upload = await context.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
        multipart: { file: { name: "季度计划.wav", mimeType: "audio/wav", buffer: silentWav(312) } },
      });
      const uploaded = (await upload.json()) as { status_code: number; data: { fileId: number } };
      expect(uploaded.status_code).toBe(1);
      const fileId = uploaded.data.fileId;
      await storeTranscript(server.query, fileId, SEGMENTS, 312);
      // an edit through the API, as the page makes it: the search index follows it
      await callApi(context, server.baseUrl, "/api/v1/audio/text/update_text", { fileId, asrResult: SEGMENTS });

      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/audio-list`);
      // one search box on My records (issue 43): names there, the transcripts one link away
      await page.getByTestId("records-search").fill("独角兽");
      await page.getByTestId("search-transcripts").click();
      await page.waitForURL(/\/search\?q=/);
      const hit = page.getByTestId("search-hit").first();
      await hit.waitFor();
      expect(await hit.textContent()).toContain("5:00");
      expect(await hit.locator("mark").textContent()).toBe("独角兽");
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      await page.screenshot({ path: `${SCREENSHOTS}/search-${label}.png` });

      await hit.click();
      await page.waitForURL(/\/detail\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get("fileId")).toBe(String(fileId));
      expect(url.searchParams.get("t")).toBe("300000");
      expect(url.searchParams.get("q")).toBe("独角兽");
      const active = page.locator("[data-testid=segment].active");
      await active.waitFor();
      expect(await active.textContent()).toContain("我们把独角兽计划放到下个季度。");
      expect(await active.locator("mark").first().textContent()).toBe("独角兽");
      await expect.poll(() => active.isVisible()).toBe(true);
      // the player was moved to the hit's moment (playing is up to the browser's autoplay rule)
      await expect
        .poll(() => page.getByTestId("player").evaluate((el) => (el as HTMLMediaElement).currentTime))
        .toBeGreaterThanOrEqual(300);
      await page.screenshot({ path: `${SCREENSHOTS}/search-detail-${label}.png` });
      await context.close();
    });
  }
});
