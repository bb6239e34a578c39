import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { silentWav, storeTranscript } from "./helpers/big-transcript.ts";
import { contextIn, DESKTOP, launchBrowser, PHONE } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * Issue 41 item 5: users read users' words, operators read operators'. A signed-in user who is not an
 * operator walks every page they can see — the landing page, /transaudio (with the transcription options
 * and the recorder open), My records, a record's /detail, text to speech, the voice pages, the reward,
 * shop and message dialogs, help — in Chinese and in English, on a fresh install as it is here (no
 * language model, whatever speech models this machine has). No visible text, title, aria-label or
 * placeholder may hold an environment variable, a document or file path, an engine's internal name or a
 * latency figure. Also: /transaudio photographed at 390 and 1280 px (into the system's temp folder), and
 * on a phone the one "AI is off" line does not push the transcript below the fold.
 */

const RULES: [string, RegExp][] = [
  ["an environment variable", /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/],
  ["a document or file path", /docs\/|\.md\b|\/(usr|etc|var|home|tmp)\/|[A-Za-z]:\\/],
  [
    "an engine's internal name",
    /eSpeak|Festival|Moonshine|whisper|sherpa|SenseVoice|Paraformer|GPT-SoVITS|onnx|ffmpeg|ffprobe/i,
  ],
  ["a latency figure", /首字延迟|latency|\d+\s?ms\b/i],
];

const SEGMENTS = Array.from({ length: 12 }, (_, i) => ({
  spkName: i % 2 === 0 ? "张三" : "李四",
  startTime: i * 5_000,
  endTime: i * 5_000 + 4_500,
  text: i % 2 === 0 ? `第${i + 1}段：我们讨论一下下周的发布计划。` : `好的，第${i + 1}段，测试已经准备好了。`,
  words: [],
}));
const SECONDS = 60;

/** What a user can read on the page: the visible text, the title, and the titles, labels and placeholders. */
function readable(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs = Array.from(document.querySelectorAll("[title], [aria-label], [placeholder]")).flatMap((el) =>
      ["title", "aria-label", "placeholder"].map((name) => el.getAttribute(name) ?? ""),
    );
    return [document.title, document.body.innerText, ...attrs].join("\n");
  });
}

/** Every rule the text breaks, with the words around the match. */
function offences(where: string, text: string): string[] {
  return RULES.flatMap(([what, rule]) => {
    const global = new RegExp(rule.source, rule.flags.includes("g") ? rule.flags : `${rule.flags}g`);
    return [...text.matchAll(global)].map((m) => {
      const at = m.index ?? 0;
      const around = text.slice(Math.max(0, at - 40), at + m[0].length + 40).replace(/\s+/g, " ");
      return `${where}: ${what} "${m[0]}" in …${around}…`;
    });
  });
}

/** Lets the page load what it asks for (some poll: a model's download), with an upper bound. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
  await page.waitForTimeout(300);
}

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL; // queues in this server's own database, as records.e2e.test.ts does
  try {
    server = await startServer({ WORKER_MODE: "embedded" });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A new signed-in user with one transcribed record; answers its /detail address. */
async function userWithRecord(context: BrowserContext, phone: string): Promise<string> {
  await signInNewUser(context, server.baseUrl, phone);
  const upload = await context.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
    multipart: { file: { name: "周会.wav", mimeType: "audio/wav", buffer: silentWav(SECONDS) } },
  });
  const uploaded = (await upload.json()) as { status_code: number; data: { fileId: number } };
  expect(uploaded.status_code).toBe(1);
  await storeTranscript(server.query, uploaded.data.fileId, SEGMENTS, SECONDS);
  return `/detail?fileId=${uploaded.data.fileId}&timeLen=${SECONDS}&fileName=${encodeURIComponent("周会.wav")}`;
}

const PAGES = ["/", "/audio-list", "/recycle-bin", "/textToVoice", "/voice-library", "/myVoice"];
const MORE = ["/songConversion", "/song-conversion", "/personalInfo", "/vip", "/helpDocument", "/search?q=发布"];

describe.each(["zh", "en"] as const)("what a user reads (%s)", (lang) => {
  let context: BrowserContext;
  let page: Page;
  let detail = "";
  const found: string[] = [];

  beforeAll(async () => {
    context = await contextIn(browser, DESKTOP, lang);
    detail = await userWithRecord(context, `${lang === "zh" ? 135 : 134}${String(Date.now()).slice(-8)}`);
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await context?.close();
  });
  beforeEach(() => {
    found.length = 0;
  });

  it("/transaudio with the transcription options and the recorder open", async () => {
    await page.goto(`${server.baseUrl}/transaudio`);
    await page
      .getByTestId("file-input")
      .setInputFiles({ name: "clip.wav", mimeType: "audio/wav", buffer: silentWav(2) });
    await page.getByTestId("transcribe-options").waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: lang === "zh" ? "开始录音" : "Record", exact: true }).click();
    await page.getByTestId("live-captions").waitFor();
    await settle(page);
    found.push(...offences(`${lang} /transaudio`, await readable(page)));
    if (lang === "zh") {
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        for (const [part, testId] of [
          ["recorder", "live-captions"],
          ["options", "transcribe-options"],
        ] as const) {
          await page.getByTestId(testId).evaluate((el) => el.scrollIntoView({ block: "center" }));
          await page.waitForTimeout(200);
          await page.screenshot({
            path: path.join(tmpdir(), `operator-words-transaudio-zh-${viewport.width}-${part}.png`),
          });
        }
      }
      await page.setViewportSize(DESKTOP);
    }
    expect(found).toEqual([]);
  }, 90_000);

  it("a record's /detail, and on a phone the transcript stays above the fold", async () => {
    await page.goto(`${server.baseUrl}${detail}`);
    await page.getByTestId("segment").first().waitFor({ timeout: 20_000 });
    await settle(page);
    found.push(...offences(`${lang} /detail`, await readable(page)));
    for (const tab of lang === "zh" ? ["章节速览", "问问", "热词"] : ["Chapters", "Ask", "Hot words"]) {
      const trigger = page.getByRole("tab", { name: tab });
      if ((await trigger.count()) === 0) continue;
      await trigger.click();
      await settle(page);
      found.push(...offences(`${lang} /detail (${tab})`, await readable(page)));
    }
    // the AI features are off here: said once, with the notes
    expect(await page.getByTestId("ai-off").count()).toBe(1);
    await page.setViewportSize(PHONE);
    await page.goto(`${server.baseUrl}${detail}`);
    const first = page.getByTestId("segment").first();
    await first.waitFor({ timeout: 20_000 });
    const box = await first.boundingBox();
    expect(box, "the first line of the transcript is on screen").not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    if (lang === "zh") await page.screenshot({ path: path.join(tmpdir(), "operator-words-detail-zh-390.png") });
    await page.setViewportSize(DESKTOP);
    expect(found).toEqual([]);
  }, 90_000);

  it("records, text to speech, voices, the personal center, membership, search and help", async () => {
    for (const pathname of [...PAGES, ...MORE]) {
      await page.goto(`${server.baseUrl}${pathname}`);
      await page.waitForFunction(() => document.body.innerText.trim().length > 20, undefined, { timeout: 20_000 });
      await settle(page);
      found.push(...offences(`${lang} ${pathname}`, await readable(page)));
    }
    expect(found).toEqual([]);
  }, 240_000);

  it("the reward, shop and message dialogs", async () => {
    await page.goto(`${server.baseUrl}/transaudio`);
    await settle(page);
    for (const opener of ["rewards", "beans", "unread"]) {
      await page.getByTestId(opener).first().click();
      const dialog = page.getByRole("dialog").first();
      await dialog.waitFor({ timeout: 10_000 });
      await settle(page);
      found.push(...offences(`${lang} dialog ${opener}`, await readable(page)));
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
    }
    expect(found).toEqual([]);
  }, 90_000);
});
