import { stat } from "node:fs/promises";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextIn, DESKTOP, launchBrowser, PHONE, SCREENSHOTS, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * Text to speech end to end in real Chromium against the real server (API + worker with its offline
 * engines + built SPA): a signed-in user browses the voice library, plays samples (one at a time),
 * picks a Chinese voice with 'use this voice', synthesises a Chinese text, plays it in the page and
 * downloads it; then the same with an English voice and text. /voice-library and /textToVoice are
 * photographed in zh and en at 390 and 1280 pixels (tests/e2e/screenshots/, git-ignored).
 * Needs `npm run build` first, chromium, and the worker's offline TTS engines (espeak-ng, festival).
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const phone = `136${String(Date.now()).slice(-8)}`;
const CHINESE = "你好，欢迎使用悦录。今天是2024年3月5日，会议在10:30开始。";
const ENGLISH = "Hello from the end to end test. The meeting starts at ten thirty.";

beforeAll(async () => {
  // Its own queues in its own database, workers in process (records.e2e explains why: no shared Redis).
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer({ WORKER_MODE: "embedded" });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser();
  context = await newContext(DESKTOP, "zh");
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newContext(viewport: { width: number; height: number }, lang: "zh" | "en") {
  return contextIn(browser, viewport, lang, { acceptDownloads: true });
}

const signIn = (ctx: BrowserContext, phoneNumber: string) => signInNewUser(ctx, server.baseUrl, phoneNumber);

/** A screenshot once entry animations are over (spinners and a playing card's pulse run on). */
async function snap(p: Page, name: string) {
  await p.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  await shot(p, name);
}

/** The whole page as well, below the fold included (a phone shows a third of it). */
async function snapFull(p: Page, name: string) {
  await snap(p, name);
  await p.screenshot({ path: path.join(SCREENSHOTS, `${name}-full.png`), fullPage: true });
}

const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const cards = (p: Page) => p.getByTestId("voice-card");

/** Waits until an audio element really plays: its 'playing' event fired and its time moves on. */
async function expectPlaying(audio: Locator) {
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => (el.paused ? -1 : el.currentTime)), { timeout: 20_000 })
    .toBeGreaterThan(0.05);
}

/** Opens the library filtered to one language and uses its first available voice; answers its name. */
async function useVoice(p: Page, language: "zh" | "en"): Promise<string> {
  await p.goto(`${server.baseUrl}/voice-library`);
  await cards(p).first().waitFor({ timeout: 20_000 });
  await p.getByTestId("filter-language").selectOption(language);
  await expect
    .poll(() => cards(p).evaluateAll((els) => [...new Set(els.map((el) => el.getAttribute("data-language")))]))
    .toEqual([language]);
  const card = cards(p)
    .filter({ has: p.locator('[data-testid="voice-use"]:not([disabled])') })
    .first();
  await card.waitFor();
  const name = (await card.locator(".voice-card-name").innerText()).trim();
  await card.getByTestId("voice-use").click();
  await p.waitForURL(/\/textToVoice$/);
  await expect.poll(() => p.getByTestId("voice-name").innerText()).toBe(name);
  return name;
}

/** Types the text, generates it, and waits for the result's player. */
async function synthesise(p: Page, text: string) {
  await p.getByTestId("tts-text").fill(text);
  await p.getByTestId("generate").click();
  const result = p.getByTestId("tts-result");
  await result.waitFor();
  try {
    await expect.poll(() => result.getAttribute("data-phase"), { timeout: 90_000 }).toMatch(/done|failed/);
  } catch (error) {
    const log = server
      .output()
      .split("\n")
      .filter((l) => !l.includes('"reqId"'));
    throw new Error(`no audio after 90 s; server log:\n${log.slice(-30).join("\n")}`, { cause: error });
  }
  expect(await result.getAttribute("data-phase"), await result.innerText()).toBe("done");
  return p.getByTestId("result-player");
}

/** Plays the result in the page, then downloads it: an audio file of some length. */
async function playAndDownload(p: Page, format: "mp3" | "wav") {
  const player = p.getByTestId("result-player");
  await player.getByTestId("player-toggle").click();
  await expectPlaying(player.locator("audio"));
  expect(await player.getAttribute("data-playing")).toBe("1");
  await player.getByTestId("player-toggle").click(); // pause

  const link = player.getByTestId("player-download");
  const href = (await link.getAttribute("href")) ?? "";
  const downloading = p.waitForEvent("download");
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
  const file = await download.path();
  expect((await stat(file)).size).toBeGreaterThan(1000);

  const res = await context.request.get(new URL(href, server.baseUrl).toString());
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(format === "mp3" ? /^audio\/mpeg/ : /^audio\/(wav|x-wav|wave)/);
  expect((await res.body()).length).toBeGreaterThan(1000);
}

describe("text to speech", () => {
  it("signs a new user in", async () => {
    await signIn(context, phone);
    await page.goto(`${server.baseUrl}/voice-library`);
    await page.getByTestId("user-menu").waitFor({ timeout: 15_000 });
    await cards(page).first().waitFor({ timeout: 20_000 });
  });

  it("the library plays one sample at a time", async () => {
    const playable = cards(page).filter({ has: page.locator('[data-testid="voice-play"]:not([disabled])') });
    expect(await playable.count(), "no voice of the library can speak here").toBeGreaterThanOrEqual(2);
    const [a, b] = [playable.nth(0), playable.nth(1)];
    await a.getByTestId("voice-play").click();
    await expect.poll(() => a.getAttribute("data-playing"), { timeout: 40_000 }).toBe("1");
    await expectPlaying(page.getByTestId("sample-audio"));
    await snap(page, "voice-library-desktop-zh");

    await b.getByTestId("voice-play").click();
    await expect.poll(() => b.getAttribute("data-playing"), { timeout: 40_000 }).toBe("1");
    expect(await a.getAttribute("data-playing")).toBe("0");
    expect(await cards(page).and(page.locator('[data-playing="1"]')).count()).toBe(1);
    await b.getByTestId("voice-play").click();
    await expect.poll(() => b.getAttribute("data-playing")).toBe("0");
  });

  it("uses a Chinese voice of the library, synthesises Chinese text, plays and downloads it", async () => {
    await useVoice(page, "zh");
    await synthesise(page, CHINESE);
    await playAndDownload(page, "mp3");
    await snap(page, "text-to-speech-desktop-zh");
  });

  it("uses an English voice, synthesises English text as WAV, plays and downloads it", async () => {
    await useVoice(page, "en");
    await page.getByRole("radio", { name: "WAV" }).check();
    await synthesise(page, ENGLISH);
    await playAndDownload(page, "wav");
    // both works are in 'my works', newest first
    const rows = page.getByTestId("work-row");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.first().innerText()).toContain("Hello from the end");
  });

  it("refuses more than 5 000 characters in the page", async () => {
    await page.getByTestId("tts-text").fill("字".repeat(5001));
    expect(await page.getByTestId("too-long").innerText()).toContain("5000");
    await page.getByTestId("generate").click();
    expect(await page.getByTestId("tts-problem").innerText()).toContain("5000");
    await page.getByTestId("tts-text").fill("");
  });

  it("looks right in zh and en, on a phone and on a desktop", async () => {
    const cookies = await context.cookies();
    for (const lang of ["zh", "en"] as const) {
      for (const [size, viewport] of [
        ["phone", PHONE],
        ["desktop", DESKTOP],
      ] as const) {
        if (lang === "zh" && size === "desktop") continue; // taken above, mid-use
        const ctx = await newContext(viewport, lang);
        await ctx.addCookies(cookies);
        const p = await ctx.newPage();
        await p.goto(`${server.baseUrl}/voice-library`);
        await cards(p).first().waitFor({ timeout: 20_000 });
        await snapFull(p, `voice-library-${size}-${lang}`);
        expect(await overflow(p), `voice-library ${size} ${lang}`).toBeLessThanOrEqual(0);

        await p.goto(`${server.baseUrl}/textToVoice`);
        await p.getByTestId("work-row").first().waitFor({ timeout: 20_000 });
        await p.getByTestId("tts-text").fill(lang === "zh" ? CHINESE : ENGLISH);
        await snapFull(p, `text-to-speech-${size}-${lang}`);
        expect(await overflow(p), `text-to-speech ${size} ${lang}`).toBeLessThanOrEqual(0);

        // the editor's voice picker: the library in a dialog
        await p.getByTestId("choose-voice").click();
        await p.getByRole("dialog").getByTestId("voice-card").first().waitFor();
        await snap(p, `voice-picker-${size}-${lang}`);
        await p.keyboard.press("Escape");
        await ctx.close();
      }
    }
  });
});
