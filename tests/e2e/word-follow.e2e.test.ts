import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bigTranscript, silentWav, storeTranscript } from "./helpers/big-transcript.ts";
import { contextIn, DESKTOP, launchBrowser, SCREENSHOTS } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { callApi, signInNewUser } from "./helpers/session.ts";

/**
 * Issue 45, follow and seek by word, in real Chromium: on /detail the word being spoken is marked as the
 * record plays and moves with it, a click on a word plays from that word, selecting words with the mouse
 * (for a clip) neither plays nor edits, a double-click edits; the share page marks and seeks by word too.
 */

let server: RunningServer;
let browser: Browser;

/** Words `step` ms apart from `start`, as the worker stores them (wordSpans' cut: punctuation with the word before). */
const timed = (words: string[], start: number, step: number) =>
  words.map((text, i) => ({ text, startTime: start + i * step, endTime: start + (i + 1) * step - 20 }));
const ZH = ["大", "家", "好，", "今", "天", "我", "们", "复", "盘", "上", "个", "季", "度。"];
const EN = ["Budget", "numbers", "look", "good,", "so", "we", "ship", "on", "Friday."];
const SEGMENTS = [
  {
    spkName: "说话人1",
    startTime: 0,
    endTime: 6000,
    text: "大家好，今天我们复盘上个季度。",
    words: timed(ZH, 200, 400),
  },
  {
    spkName: "说话人2",
    startTime: 6000,
    endTime: 12_000,
    text: "Budget numbers look good, so we ship on Friday.",
    words: timed(EN, 6200, 500),
  },
  {
    spkName: "说话人1",
    startTime: 12_000,
    endTime: 15_000,
    text: "好的，散会。",
    words: timed(["好", "的，", "散", "会。"], 12_200, 500),
  },
];
const WORDS = ZH.length + EN.length + 4;

beforeAll(async () => {
  server = await startServer();
  // the tests start the player themselves, as a click would
  browser = await launchBrowser(["--autoplay-policy=no-user-gesture-required"]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Sample {
  /** the media's position, ms */
  t: number;
  /** the start of the word marked as spoken (null: none) */
  start: number | null;
  /** ms since the frame before */
  frame: number;
}

/**
 * Samples, on every animation frame for `ms`, the media's position and the start of the word marked as spoken;
 * the media element and the marked word are found by the selectors given.
 */
function sample(page: Page, media: string, spoken: string, attribute: string, ms: number) {
  return page.evaluate(
    ({ media, spoken, attribute, ms }) =>
      new Promise<Sample[]>((resolve) => {
        const el = document.querySelector(media) as HTMLMediaElement;
        const out: Sample[] = [];
        const until = performance.now() + ms;
        let last = performance.now();
        const frame = (now: number) => {
          const word = document.querySelector(spoken);
          out.push({
            t: el.currentTime * 1000,
            start: word ? Number(word.getAttribute(attribute)) : null,
            frame: now - last,
          });
          last = now;
          if (now < until) requestAnimationFrame(frame);
          else resolve(out);
        };
        requestAnimationFrame(frame);
      }),
    { media, spoken, attribute, ms },
  );
}

type Word = { text: string; startTime: number };
/** The start (ms) of the word being spoken at `t` ms: the last one begun (punctuation is no word of its own). */
const expectedStart = (words: readonly Word[], t: number) =>
  words.filter((w) => w.startTime <= t && /[\p{L}\p{N}]/u.test(w.text)).at(-1)?.startTime ?? null;

/**
 * Playing, the marked word moves on through several words and is, frame after frame, the one under the
 * playhead — or the one a frame or two before (the sampling frame may run before the page's): never
 * timeupdate's quarter of a second behind.
 */
function expectFollowed(samples: Sample[], words: readonly Word[] = SEGMENTS.flatMap((s) => s.words)) {
  const starts = samples.map((s) => s.start).filter((s): s is number => s !== null);
  const distinct = [...new Set(starts)];
  expect(distinct.length, JSON.stringify(samples.slice(0, 10))).toBeGreaterThanOrEqual(3);
  expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
  const off = samples.filter(
    (s) => s.start !== expectedStart(words, s.t) && s.start !== expectedStart(words, s.t - 50),
  );
  expect(off.length / samples.length, JSON.stringify(off.slice(0, 10))).toBeLessThan(0.15);
}

describe("follow and seek by word", () => {
  it("/detail: the spoken word is marked and follows the playhead; a click on a word plays from it", async () => {
    const owner = await contextIn(browser, DESKTOP, "zh");
    await signInNewUser(owner, server.baseUrl, "13900045201");
    const upload = await owner.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
      multipart: { file: { name: "季度复盘.wav", mimeType: "audio/wav", buffer: silentWav(20) } },
    });
    const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
    await storeTranscript(server.query, fileId, SEGMENTS, 20);

    const page = await owner.newPage();
    await page.goto(`${server.baseUrl}/detail?fileId=${fileId}`);
    // the text shows first; its words' times follow
    await page.getByTestId("segment-text").first().waitFor();
    await expect.poll(() => page.locator(".segment-text .word").count(), { timeout: 15_000 }).toBe(WORDS);
    expect(await page.getByTestId("segment-text").nth(1).innerText()).toBe(SEGMENTS[1]!.text);
    const player = page.getByTestId("player");
    await page.waitForFunction(
      () => (document.querySelector("[data-testid=player]") as HTMLMediaElement).readyState >= 1,
    );

    // playing: the word under the playhead is marked, frame after frame
    await player.evaluate((a: HTMLMediaElement) => a.play());
    await page.locator(".word.spoken").waitFor();
    const samples = await sample(page, "[data-testid=player]", ".word.spoken", "data-start", 1_800);
    await player.evaluate((a: HTMLMediaElement) => a.pause());
    expectFollowed(samples);
    expect(await page.locator(".word.spoken").count()).toBe(1);
    // in the playing line
    expect(await page.locator('[aria-current="true"] .word.spoken').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/word-follow-detail.png` });

    // a click on a word: from its start, playing, that word marked; no editing
    const look = page.locator('.word[data-start="7200"]');
    expect(await look.innerText()).toBe("look");
    await look.click();
    const at = await player.evaluate((a: HTMLMediaElement) => a.currentTime);
    expect(at).toBeGreaterThanOrEqual(7.19);
    expect(at).toBeLessThan(7.7);
    expect(await player.evaluate((a: HTMLMediaElement) => a.paused)).toBe(false);
    const followed = await sample(page, "[data-testid=player]", ".word.spoken", "data-start", 1_200);
    await player.evaluate((a: HTMLMediaElement) => a.pause());
    expect(followed[0]!.start).toBeGreaterThanOrEqual(7200);
    expectFollowed(followed);
    expect(await page.getByRole("textbox", { name: /修改第/ }).count()).toBe(0);

    // words selected with the mouse (to clip them): no seek, no edit, the Clip button by them
    const before = await player.evaluate((a: HTMLMediaElement) => a.currentTime);
    const from = (await page.locator('.word[data-start="1400"]').boundingBox())!;
    const to = (await page.locator('.word[data-start="3400"]').boundingBox())!;
    await page.mouse.move(from.x + 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width - 2, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    expect(await page.evaluate(() => String(document.getSelection()))).toBe("今天我们复盘");
    await page.getByTestId("clip-make").waitFor();
    expect(await player.evaluate((a: HTMLMediaElement) => a.currentTime)).toBe(before);
    expect(await player.evaluate((a: HTMLMediaElement) => a.paused)).toBe(true);
    expect(await page.getByRole("textbox", { name: /修改第/ }).count()).toBe(0);

    // a double-click edits the line (the ✎ button too: records.e2e)
    await page.getByTestId("segment-text").nth(2).dblclick();
    const box = page.getByRole("textbox", { name: "修改第 3 段" });
    await box.waitFor();
    expect(await box.inputValue()).toBe("好的，散会。");
    await box.press("Escape");
    await owner.close();
  });

  it("a 5-hour transcript (3 600 segments, every character a timed word): the spoken word follows frame by frame, smoothly", async () => {
    const big = bigTranscript(3_600, 5);
    const owner = await contextIn(browser, DESKTOP, "zh");
    await signInNewUser(owner, server.baseUrl, "13900045203");
    const upload = await owner.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
      multipart: { file: { name: "五小时会议.wav", mimeType: "audio/wav", buffer: silentWav(1) } },
    });
    const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
    await storeTranscript(server.query, fileId, big, 5 * 3600);
    const page = await owner.newPage();
    await page.goto(`${server.baseUrl}/detail?fileId=${fileId}`);
    await page.getByTestId("segment-text").first().waitFor();
    await expect.poll(() => page.locator(".segment-text .word").count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // the longest line around the 3 hour mark, played (the record's media is a second of silence: its
    // position is made to run with the clock from there)
    let target = 2_000;
    for (let i = 1_990; i < 2_010; i++) if (big[i]!.text.length > big[target]!.text.length) target = i;
    const player = page.getByTestId("player");
    await player.evaluate((el: HTMLMediaElement, from: number) => {
      const t0 = performance.now();
      Object.defineProperty(el, "currentTime", {
        configurable: true,
        get: () => (from + performance.now() - t0) / 1000,
        set: () => {},
      });
      Object.defineProperty(el, "paused", { configurable: true, get: () => false });
      el.dispatchEvent(new Event("play"));
      el.dispatchEvent(new Event("timeupdate"));
    }, big[target]!.startTime);
    const row = page.locator(`.segment-row[data-index="${target}"]`);
    await row.locator(".word.spoken").waitFor({ timeout: 5_000 });
    const samples = await sample(page, "[data-testid=player]", ".word.spoken", "data-start", 2_000);
    await player.evaluate((el: HTMLMediaElement) => {
      Object.defineProperty(el, "paused", { configurable: true, get: () => true });
      el.dispatchEvent(new Event("pause"));
    });
    expectFollowed(samples, big[target]!.words);
    // one row re-renders per word: the frames stay at display rate or near it (two frames on a busy,
    // GPU-less 2-core machine), as scrolling does (transcript-size.e2e)
    const frames = samples.map((s) => s.frame).sort((a, b) => a - b);
    console.log(
      `following words on a 5-hour transcript: frame p50 ${frames[Math.floor(frames.length / 2)]!.toFixed(1)} ms over ${frames.length}`,
    );
    expect(frames[Math.floor(frames.length / 2)]).toBeLessThanOrEqual(34);
    expect(await page.locator(".word.spoken").count()).toBe(1);
    await owner.close();
  });

  it("the share page: words marked as they are spoken, a click on a word plays from it", async () => {
    const owner = await contextIn(browser, DESKTOP, "zh");
    await signInNewUser(owner, server.baseUrl, "13900045202");
    const upload = await owner.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
      multipart: { file: { name: "季度复盘.wav", mimeType: "audio/wav", buffer: silentWav(20) } },
    });
    const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
    await storeTranscript(server.query, fileId, SEGMENTS, 20);
    const link = await callApi<{ url: string }>(owner, server.baseUrl, "/api/v1/share/create", {
      fileId,
      expireDays: 7,
      withAudio: true,
    });

    // a phone: touch, at 375 px
    const stranger = await browser.newContext({
      viewport: { width: 375, height: 812 },
      locale: "en-US",
      hasTouch: true,
      isMobile: true,
    });
    const visit = await stranger.newPage();
    const errors: string[] = [];
    visit.on("pageerror", (e) => errors.push(e.message));
    visit.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    expect((await visit.goto(link.url))?.status()).toBe(200);
    await visit.getByText("Click any word to play from there.").waitFor();
    // the words' times come with their lines; the words become spans only where needed
    expect(await visit.locator("#segments p[data-w]").count()).toBe(3);
    expect(await visit.locator("#segments span[data-t]").count()).toBe(0);
    await visit.waitForFunction(() => (document.querySelector("audio#player") as HTMLAudioElement).readyState >= 1);
    const audio = visit.locator("audio#player");
    /** The middle of `word` in line `line`'s text, on screen. */
    const middleOf = (line: number, word: string) =>
      visit
        .locator("#segments .text")
        .nth(line)
        .evaluate((p, word) => {
          // the word's first character, in whichever text node holds it (the line may be spans already)
          let from = (p.textContent ?? "").indexOf(word);
          const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
          let node = walker.nextNode();
          while (node && from >= (node.textContent?.length ?? 0)) {
            from -= node.textContent?.length ?? 0;
            node = walker.nextNode();
          }
          const range = document.createRange();
          range.setStart(node!, from);
          range.setEnd(node!, from + 1);
          const box = range.getBoundingClientRect();
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }, word);

    // a tap on "look" (7.2 s): from there, playing; the line's words are spans now, that one marked
    const look = await middleOf(1, "look");
    await visit.touchscreen.tap(look.x, look.y);
    const at = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    expect(at).toBeGreaterThanOrEqual(7.19);
    expect(at).toBeLessThan(7.7);
    expect(await visit.locator('li[data-start="6"] span[data-t]').allInnerTexts()).toEqual(EN);
    expect(await visit.locator("#segments .text").nth(1).innerText()).toBe(SEGMENTS[1]!.text);
    await expect.poll(() => visit.locator('span[data-t="7.2"]').getAttribute("class")).toContain("now");
    expect(await visit.locator('li[data-start="6"]').getAttribute("class")).toContain("current");
    const samples = (await sample(visit, "audio#player", "#segments span.now", "data-t", 1_500)).map((s) => ({
      ...s,
      start: s.start === null ? null : Math.round(s.start * 1000),
    }));
    await audio.evaluate((a: HTMLAudioElement) => a.pause());
    expectFollowed(samples);
    expect(await visit.locator("#segments span.now").count()).toBe(1);
    // a mouse click on a word of a line not yet played: "散" (13.2 s)
    const san = await middleOf(2, "散");
    await visit.mouse.click(san.x, san.y);
    const there = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    expect(there).toBeGreaterThanOrEqual(13.19);
    expect(there).toBeLessThan(13.7);
    await audio.evaluate((a: HTMLAudioElement) => a.pause());
    await visit.screenshot({ path: `${SCREENSHOTS}/word-follow-share.png`, fullPage: true });
    // the page's own nonce'd script did it: nothing refused by its CSP, no error
    expect(errors).toEqual([]);
    await stranger.close();
    await owner.close();
  });
});
