import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bigTranscript, silentWav, storeTranscript } from "./helpers/big-transcript.ts";
import { DESKTOP, launchBrowser, PHONE, shot } from "./helpers/browser.ts";
import {
  openDetail,
  scrollToEnd,
  summary,
  typeTimed,
  waitForWordTimes,
  watchFirstRows,
  watchKeys,
} from "./helpers/detail-metrics.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { callApi, signInNewUser } from "./helpers/session.ts";

/**
 * A 5-hour transcript (3 600 segments, seeded straight into the database as the worker would leave
 * it) on /detail in real Chromium against the real server: the first rows are painted within
 * 1.5 s of the navigation, only a bounded number of rows is ever in the DOM, a full scroll to the
 * end runs without gaps and its frame times are recorded, the playing segment is followed, and
 * search, edit and speaker rename answer a keystroke within a frame or two. Also the language
 * choice's engine states on /transaudio, photographed (tests/e2e/screenshots/, git-ignored).
 */
const SEGMENTS = 3_600;
const SECONDS = 5 * 3600;
const FIRST_PAINT_LIMIT_MS = 1_500;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let fileId = 0;
let detailUrl = "";
const phone = `137${String(Date.now()).slice(-8)}`;
const segments = bigTranscript(SEGMENTS, SECONDS / 3600);

beforeAll(async () => {
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL; // see records.e2e.test.ts: queues in this server's own database
  try {
    server = await startServer({ WORKER_MODE: "embedded" });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: DESKTOP, locale: "zh-CN" });
  await signInNewUser(context, server.baseUrl, phone);
  const upload = await context.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
    multipart: { file: { name: "五小时会议.wav", mimeType: "audio/wav", buffer: silentWav(1) } },
  });
  const uploaded = (await upload.json()) as { status_code: number; data: { fileId: number } };
  expect(uploaded.status_code).toBe(1);
  fileId = uploaded.data.fileId;
  await storeTranscript(server.query, fileId, segments, SECONDS);
  detailUrl = `${server.baseUrl}/detail?fileId=${fileId}&timeLen=${SECONDS}&fileName=${encodeURIComponent("五小时会议.wav")}`;
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** POSTs a JSON body through the browser context (its cookies), expecting the success envelope. */
async function _call(pathname: string, data: unknown = {}) {
  await callApi(context, server.baseUrl, pathname, data);
}

const rowsInDom = (p: Page) => p.getByTestId("segment").count();
const row = (p: Page, index: number) => p.locator(`.segment-row[data-index="${index}"]`);
const fmt = (s: { p50: number; p95: number; max: number; n: number }) =>
  `p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms over ${s.n}`;

/** Pretends the player is at `seconds` (the record's media is a second of silence) and says so. */
async function playAt(p: Page, seconds: number) {
  await p.getByTestId("player").evaluate((el, s) => {
    Object.defineProperty(el, "currentTime", { configurable: true, get: () => s, set: () => {} });
    el.dispatchEvent(new Event("timeupdate"));
  }, seconds);
}

/** Whether row `index` is wholly on screen, below the sticky player. */
async function onScreen(p: Page, index: number): Promise<boolean> {
  return p.evaluate((i) => {
    const el = document.querySelector(`.segment-row[data-index="${i}"]`);
    const bar = document.querySelector(".player-bar");
    if (!el || !bar) return false;
    const r = el.getBoundingClientRect();
    return r.top >= bar.getBoundingClientRect().bottom - 1 && r.bottom <= window.innerHeight + 1;
  }, index);
}

describe("a 5-hour transcript on /detail", () => {
  it(`paints its first rows within ${FIRST_PAINT_LIMIT_MS} ms of the navigation`, async () => {
    await watchFirstRows(page);
    // a first visit warms the server's and the browser's caches as any earlier page would
    const cold = await openDetail(page, detailUrl);
    console.log(`first visit (nothing cached): first rows painted at ${cold.toFixed(0)} ms`);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      // each visit once the last one is done (a CI run that did not wait measured 2178, 1228 and 1786 ms)
      await waitForWordTimes(page);
      times.push(await openDetail(page, detailUrl));
    }
    console.log(`first rows painted at ${times.map((t) => t.toFixed(0)).join(", ")} ms after navigation`);
    // the median of five: one slow run on a machine shared with other work is not the page's doing
    expect(times.sort((a, b) => a - b)[2]).toBeLessThan(FIRST_PAINT_LIMIT_MS);
    expect(await page.getByText(`${SEGMENTS} 段`).count()).toBeGreaterThan(0);
    await shot(page, "detail-5h-desktop-zh");
  });

  it("keeps only a bounded number of rows in the DOM", async () => {
    const rows = await rowsInDom(page);
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThanOrEqual(60);
  });

  it("scrolls from the first segment to the last without gaps, its frame times recorded", async () => {
    const run = await scrollToEnd(page);
    const frames = summary(run.frames);
    console.log(
      `full scroll: ${fmt(frames)} frames, ${run.blankFrames} blank, ≤ ${run.maxRows} rows in the DOM, page ${run.height} px`,
    );
    expect(run.reachedEnd).toBe(true);
    expect(run.blankFrames).toBe(0);
    expect(run.maxRows).toBeLessThanOrEqual(60);
    expect(frames.n).toBeGreaterThan(100);
    // Smooth: half the frames at display rate or near it (16.7 ms idle; up to two frames when the
    // shared 2-core machine without a GPU is busy with other work).
    expect(frames.p50).toBeLessThanOrEqual(34);
    expect(await row(page, SEGMENTS - 1).innerText()).toContain(segments.at(-1)!.text.slice(0, 6));
    await shot(page, "detail-5h-end-desktop-zh");
  });

  it("follows the playing segment; a hand scroll stops it until asked back", async () => {
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    const target = 2_000;
    await playAt(page, segments[target]!.startTime / 1000 + 0.5);
    await expect.poll(() => onScreen(page, target), { timeout: 5_000 }).toBe(true);
    expect(await row(page, target).getByTestId("segment").getAttribute("aria-current")).toBe("true");

    await page.mouse.move(400, 400);
    await page.mouse.wheel(0, -3_000);
    await expect.poll(() => onScreen(page, target)).toBe(false);
    const y = await page.evaluate(() => window.scrollY);
    await playAt(page, segments[2_500]!.startTime / 1000 + 0.5);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.scrollY)).toBe(y);
    await page.getByTestId("follow-playing").click();
    await expect.poll(() => onScreen(page, 2_500), { timeout: 5_000 }).toBe(true);
    await shot(page, "detail-5h-following-desktop-zh");
  });

  it("searches, edits a line and renames a speaker without lag", async () => {
    await watchKeys(page);
    const search = page.getByRole("searchbox", { name: "在文稿中搜索" });
    const searchKeys = summary(await typeTimed(page, search, "numbers"));
    await expect.poll(() => page.getByTestId("match-count").innerText()).toMatch(/^1 \/ \d+$/);
    const total = Number((await page.getByTestId("match-count").innerText()).split("/")[1]);
    expect(total).toBe(segments.reduce((n, s) => n + s.text.split("numbers").length - 1, 0));
    await search.press("Shift+Enter"); // the last match, near the end
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe(`${total} / ${total}`);
    await expect.poll(() => page.locator("mark.current").isVisible()).toBe(true);
    await search.fill("");

    // a row in the middle of those rendered (the click scrolls it into view if need be); picked again
    // if the rows re-rendered in between (clearing the search re-measures the rows near the end)
    let index = -1;
    const tries: string[] = [];
    while (index < 0 && tries.length < 5) {
      const picked = await page.evaluate(() => {
        const rows = Array.from(document.querySelectorAll<HTMLElement>(".segment-row"));
        const state = `${rows.length} rows rendered (${rows[0]?.dataset.index}–${rows.at(-1)?.dataset.index}) at scrollY ${window.scrollY} of ${document.documentElement.scrollHeight}`;
        return { index: Number(rows[Math.floor(rows.length / 2)]?.dataset.index ?? -1), state };
      });
      tries.push(picked.state);
      // the line's ✎ button edits it (a click on its text plays from there)
      const clicked = await row(page, picked.index)
        .getByTestId("segment-edit")
        .click({ timeout: 3_000 })
        .then(() => true)
        .catch(() => false);
      if (clicked) index = picked.index;
    }
    if (tries.length > 1) console.log(`rows moved before the click: ${tries.join("; ")}`);
    expect(index, tries.join("; ")).toBeGreaterThan(0);
    const box = row(page, index).getByRole("textbox");
    await box.press("End");
    const editKeys = summary(await typeTimed(page, box, " edited by e2e"));
    const saved = page.waitForResponse((r) => r.url().includes("/text/update_para"));
    const savedFrom = Date.now();
    await box.press("Tab");
    expect((await (await saved).json()).status_code).toBe(1);
    const saveMs = Date.now() - savedFrom;
    expect(await row(page, index).getByTestId("segment-text").innerText()).toContain("edited by e2e");

    const speaker = segments[index]!.spkName;
    await row(page, index).locator(".speaker-name").click();
    const popover = page.getByTestId("speaker-popover");
    const renameKeys = summary(await typeTimed(page, popover.getByRole("textbox"), "Chair"));
    await popover.getByRole("checkbox").check();
    const renamed = page.waitForResponse((r) => r.url().includes("/text/update_para"));
    const started = Date.now();
    await popover.getByTestId("speaker-confirm").click();
    const answer = await renamed;
    const serverMs = Date.now() - started;
    expect((await answer.json()).status_code).toBe(1);
    await expect.poll(() => row(page, index).locator(".speaker-name").innerText()).toBe("Chair");
    const renameAllMs = Date.now() - started;
    const names = await page.locator(".speaker-name").allInnerTexts();
    expect(names).not.toContain(speaker);

    console.log(
      `keystroke to next frame — search: ${fmt(searchKeys)}; edit: ${fmt(editKeys)}; rename: ${fmt(renameKeys)}; ` +
        `rename all "${speaker}" (${segments.filter((s) => s.spkName === speaker).length} segments): ${renameAllMs} ms ` +
        `on screen, of which ${serverMs} ms until update_para answered; one line saved in ${saveMs} ms`,
    );
    // within a frame or two; a busy shared machine may stretch the odd key
    for (const keys of [searchKeys, editKeys, renameKeys]) expect(keys.p50).toBeLessThan(100);
  });

  it("works at phone width, and in English", async () => {
    const phonePage = await context.newPage();
    await phonePage.setViewportSize(PHONE);
    await watchFirstRows(phonePage);
    const first = await openDetail(phonePage, detailUrl);
    expect(first).toBeLessThan(5_000);
    expect(await rowsInDom(phonePage)).toBeLessThanOrEqual(60);
    const sideways = await phonePage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways).toBeLessThanOrEqual(1);
    await shot(phonePage, "detail-5h-phone-zh");
    await phonePage.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight / 2 }));
    await phonePage.waitForTimeout(300);
    await shot(phonePage, "detail-5h-phone-middle-zh");

    await phonePage.goto(`${detailUrl}&lang=en`);
    await phonePage.getByTestId("segment").first().waitFor();
    expect(await phonePage.getByText(`${SEGMENTS} segments`).count()).toBeGreaterThan(0);
    await shot(phonePage, "detail-5h-phone-en");
    await phonePage.setViewportSize(DESKTOP);
    await phonePage.waitForTimeout(200);
    await shot(phonePage, "detail-5h-desktop-en");
    await phonePage.goto(`${detailUrl}&lang=zh`);
    await phonePage.close();
  });
});

describe("the language choice on /transaudio", () => {
  const STATES = {
    zh: [
      { value: "zh", label: "中文", available: false, state: "downloading", progress: 42, engine: "sherpa" },
      { value: "en", label: "英文", available: true, state: "ready", engine: "moonshine" },
      {
        value: "auto",
        label: "自动识别",
        available: false,
        state: "failed",
        engine: "whisper",
        missing: "语种自动识别模型下载未成功，系统会自动重试，请稍后再试或联系站点管理员",
      },
    ],
    en: [
      { value: "zh", label: "Chinese", available: false, state: "downloading", progress: 42, engine: "sherpa" },
      { value: "en", label: "English", available: true, state: "ready", engine: "moonshine" },
      {
        value: "auto",
        label: "Auto-detect",
        available: false,
        state: "failed",
        engine: "whisper",
        missing:
          "The language detection model could not be downloaded yet; it is retried automatically. Please try again later or contact the site administrator",
      },
    ],
  } as const;

  for (const lang of ["zh", "en"] as const) {
    it(`shows ready, downloading n% and failed in ${lang}, at desktop and phone widths`, async () => {
      const p = await context.newPage();
      // The engines' states as the server reports them while the Chinese model downloads (this
      // server has no such download running): the page's rendering of them is what is checked.
      await p.route("**/api/v1/dictation/configuration*", (route) =>
        route.fulfill({
          json: { status_code: 1, status_msg: "success", data: { languages: STATES[lang], maxSpeakers: 10 } },
        }),
      );
      await p.goto(`${server.baseUrl}/transaudio?lang=${lang}`);
      await p
        .getByTestId("file-input")
        .setInputFiles({ name: "clip.wav", mimeType: "audio/wav", buffer: silentWav(1) });
      const options = p.getByTestId("transcribe-options");
      await options.waitFor({ timeout: 30_000 });
      expect(await options.getByRole("radio").nth(0).isDisabled()).toBe(true);
      expect(await p.getByTestId("downloading-zh").innerText()).toContain("42%");
      expect(
        await p
          .getByRole("progressbar", { name: lang === "zh" ? "中文模型下载进度" : "Chinese model download" })
          .count(),
      ).toBe(1);
      // auto cannot tell the languages apart here: not offered (issue 41)
      expect(await options.getByRole("radio").count()).toBe(2);
      expect(await p.getByTestId("missing-auto").count()).toBe(0);
      // English is for English speech only; a Chinese user is not put on it in silence, an English one is
      expect(await p.getByTestId("note-en").innerText()).toBe(
        lang === "zh" ? "仅适用于英文语音" : "For English speech only",
      );
      await expect.poll(() => options.getByRole("radio").nth(1).isChecked()).toBe(lang === "en");
      if (lang === "zh") expect(await p.getByTestId("choose-language").innerText()).toBe("请选择录音所说的语言");
      await options.scrollIntoViewIfNeeded();
      await shot(p, `transaudio-language-states-desktop-${lang}`);
      await p.setViewportSize(PHONE);
      await options.scrollIntoViewIfNeeded();
      await shot(p, `transaudio-language-states-phone-${lang}`);
      await p.close();
    });
  }
});

describe("the landing page in English (issue 11 item 8)", () => {
  it("shows its sample transcript and speaker labels in English", async () => {
    const en = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    const p = await en.newPage();
    await p.goto(`${server.baseUrl}/?lang=en`);
    await p.getByTestId("cta-upload").waitFor();
    const sample = await p.locator(".mock-lines").innerText();
    expect(sample).toContain("Speaker 1");
    expect(sample).not.toMatch(/\p{Script=Han}/u);
    expect(await p.locator(".hero").innerText()).not.toMatch(/\p{Script=Han}/u);
    await shot(p, "landing-desktop-en");
    await p.setViewportSize(PHONE);
    await shot(p, "landing-phone-en");
    await en.close();
  });
});
