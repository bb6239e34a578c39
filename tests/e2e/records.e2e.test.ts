import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Dialog, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, launchBrowser, PHONE, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { callApi, signInNewUser } from "./helpers/session.ts";

const FFMPEG = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;

/**
 * Records end to end in real Chromium against the real server (API + worker + built SPA): a user
 * signs in, uploads an English clip made at test time with espeak-ng, watches the upload and the
 * transcription, opens /detail, renames a speaker, edits a line, exports Word and SRT, and the
 * pages are photographed at desktop and phone widths (tests/e2e/screenshots/, git-ignored).
 * Needs `npm run build` first, espeak-ng, chromium, and an English engine (moonshine) in the worker.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let work: string;
let clip: string;
let detailUrl = "";
const phone = `139${String(Date.now()).slice(-8)}`;
const SPOKEN = "Hello everyone. Today we talk about the budget for next year. The meeting ends at five.";
const EDITED = "Hello from the end to end test.";
const TYPED = " Typed, then reloaded.";

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "yuelu-records-e2e-"));
  clip = path.join(work, "budget-meeting.wav");
  execFileSync("espeak-ng", ["-v", "en-us", "-s", "150", "-w", clip, SPOKEN]);
  // Each run gets a throw-away database, but one Redis serves every run and test on the machine, and
  // job ids (task-<taskId>) restart at 1 in each new database: BullMQ would take this run's jobs for
  // finished jobs of another run and never start them. So this server keeps its queues in its own
  // database, with the workers in process (as `npm start` without REDIS_URL does).
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer({ WORKER_MODE: "embedded" });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: DESKTOP, locale: "zh-CN", acceptDownloads: true });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** POSTs a JSON body through the browser context (its cookies), expecting the success envelope. */
async function _call(pathname: string, data: unknown = {}) {
  await callApi(context, server.baseUrl, pathname, data);
}

describe("records", () => {
  it("signs a new user in, with the survey answered and today's check-in done", async () => {
    // The shell test covers the login frame and onboarding; here the local-host dev login is enough.
    await signInNewUser(context, server.baseUrl, phone);
    await page.goto(`${server.baseUrl}/transaudio`);
    await page.getByTestId("user-menu").waitFor({ timeout: 15_000 });
    await page.getByTestId("upload-zone").waitFor();
  });

  it("refuses a file of another type before sending it", async () => {
    await page.getByTestId("file-input").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not audio"),
    });
    await expect.poll(() => page.getByTestId("upload-refusals").innerText()).toContain("notes.txt");
  });

  it("refuses a 3 h 10 min file before uploading it, reading its length in the browser (issue 43)", async () => {
    // a silent 3 h 10 min AAC at 8 kb/s (about 0.7 MB, made in seconds): its length is in its header
    const long = path.join(work, "long-meeting.m4a");
    execFileSync(FFMPEG, [
      ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono"],
      ...["-t", String(3 * 3600 + 600), "-c:a", "aac", "-b:a", "8k", long],
    ]);
    const sent: string[] = [];
    const watch = (req: { url: () => string }) => {
      if (req.url().includes("/audio/upload")) sent.push(req.url());
    };
    page.on("request", watch);
    await page.getByTestId("file-input").setInputFiles(long);
    const refusal = page.getByTestId("refused-overTranscribeLimit");
    await refusal.waitFor({ timeout: 15_000 });
    expect(await refusal.innerText()).toContain(
      "long-meeting.m4a 时长 3 小时 10 分钟，超过单个文件 3 小时的转写上限，未上传",
    );
    page.off("request", watch);
    expect(sent).toEqual([]);
    expect(await page.getByTestId("upload-item").count()).toBe(0);
  });

  it("uploads the clip with progress, then transcribes it in English and follows its progress", async () => {
    await page.getByTestId("file-input").setInputFiles(clip);
    await page.getByText("上传完成").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("upload-bytes").innerText()).toContain("100%");
    const english = page.getByRole("radio", { name: /英文/ });
    await english.waitFor();
    const missing = await page.getByTestId("missing-en").count();
    expect(missing, "the worker reports no English engine (moonshine)").toBe(0);
    await english.check();
    await shot(page, "transaudio-uploaded-desktop-zh");
    await page.getByTestId("start-transcription").click();
    await page.getByTestId("transcription-item").waitFor();
    expect(await page.getByTestId("transcription-status").innerText()).toMatch(/排队中|转写中|已完成/);
    const link = page.getByTestId("open-transcript");
    try {
      await link.waitFor({ timeout: 120_000 });
    } catch (error) {
      const status = await page.getByTestId("transcription-item").innerText();
      const log = server
        .output()
        .split("\n")
        .filter((l) => !l.includes('"reqId"'));
      throw new Error(`no transcript after 2 minutes (${status}); server log:\n${log.slice(-30).join("\n")}`, {
        cause: error,
      });
    }
    await shot(page, "transaudio-transcribed-desktop-zh");
    detailUrl = new URL((await link.getAttribute("href")) ?? "", server.baseUrl).toString();
    expect(new URL(detailUrl).searchParams.get("fileName")).toBe("budget-meeting.wav");
  });

  it("lists the record as complete in My records", async () => {
    await page.goto(`${server.baseUrl}/audio-list`);
    const row = page.locator('[data-testid^="record-"]').filter({ hasText: "budget-meeting.wav" });
    await row.waitFor();
    expect(await row.getByTestId("record-status").innerText()).toBe("已完成");
    await shot(page, "audio-list-desktop-zh");
  });

  it("opens /detail, renames a speaker everywhere and edits a line; both survive a reload", async () => {
    await page.goto(detailUrl);
    await expect.poll(() => page.title()).toBe("budget-meeting.wav - 悦录");
    const first = page.getByTestId("segment").first();
    await first.waitFor({ timeout: 15_000 });
    expect((await page.getByTestId("segment-text").allInnerTexts()).join(" ").toLowerCase()).toMatch(/budget|meeting/);
    // an English recording in the Chinese UI: its speakers read 说话人N, not Speaker N (issue 30)
    for (const name of await page.locator(".speaker-name").allInnerTexts()) expect(name).toMatch(/^说话人\d+$/);

    await first.locator(".speaker-name").click();
    const popover = page.getByTestId("speaker-popover");
    await popover.getByRole("textbox").fill("主持 人");
    await popover.getByTestId("speaker-confirm").click();
    expect(await popover.getByRole("alert").innerText()).toBe("仅支持中文、英文和数字");
    await popover.getByRole("textbox").fill("主持人");
    await popover.getByRole("checkbox").check();
    const renamed = page.waitForResponse((r) => r.url().includes("/text/update_para"));
    await popover.getByTestId("speaker-confirm").click();
    expect((await (await renamed).json()).status_code).toBe(1);
    await popover.waitFor({ state: "detached" });

    await first.getByTestId("segment-edit").click();
    const box = first.getByRole("textbox");
    await box.fill(EDITED);
    const saved = page.waitForResponse((r) => r.url().includes("/text/update_para"));
    await box.press("Tab");
    expect((await (await saved).json()).status_code).toBe(1);
    await shot(page, "detail-desktop-zh");

    await page.reload();
    await page.getByTestId("segment").first().waitFor();
    const names = await page.locator(".speaker-name").allInnerTexts();
    expect(names.length).toBeGreaterThan(0);
    expect(names[0]).toBe("主持人");
    expect(await page.getByTestId("segment-text").first().innerText()).toContain(EDITED);
    // avatars: a given name's first character, a default label's number (issue 43)
    const avatars = await page.getByTestId("avatar").allInnerTexts();
    expect(avatars[0]).toBe("主");
    for (const [i, name] of names.entries()) if (/^说话人\d+$/.test(name)) expect(avatars[i]).toBe(name.slice(3));
  });

  it("keeps a line typed into and never left when the page reloads within 2 s (issue 43)", async () => {
    const first = page.getByTestId("segment").first();
    await first.getByTestId("segment-edit").click();
    const box = first.getByRole("textbox");
    await box.press("End");
    await box.pressSequentially(TYPED);
    const typedAt = Date.now();
    // still in the box, maybe not saved yet: the browser asks before leaving, and is answered "leave"
    const leave = (dialog: Dialog) => void dialog.accept();
    page.on("dialog", leave);
    await page.reload();
    expect(Date.now() - typedAt).toBeLessThan(2_000);
    page.off("dialog", leave);
    await page.getByTestId("segment").first().waitFor();
    await expect.poll(() => page.getByTestId("segment-text").first().innerText()).toContain(`${EDITED}${TYPED}`);
    // and the server has it (sent as the page went, or again from this browser's copy after the reload)
    const fileId = new URL(detailUrl).searchParams.get("fileId");
    const savedText = async () => {
      const res = await context.request.get(
        `${server.baseUrl}/voice_yuelu/api/v2/audio/text/get_text?fileId=${fileId}`,
      );
      const body = (await res.json()) as { data: { asrResult: string } };
      return (JSON.parse(body.data.asrResult) as { text: string }[])[0]?.text ?? "";
    };
    await expect.poll(savedText, { timeout: 10_000 }).toContain(`${EDITED}${TYPED}`);
  });

  it("searches the transcript", async () => {
    await page.getByRole("searchbox", { name: "在文稿中搜索" }).fill("end to end");
    await expect.poll(() => page.getByTestId("match-count").innerText()).toBe("1 / 1");
    expect(await page.locator("mark.current").innerText()).toBe("end to end");
    await page.getByRole("searchbox", { name: "在文稿中搜索" }).fill("");
  });

  it("exports Word and SRT downloads", async () => {
    const exportAs = async (kind: "word" | "srt") => {
      await page.getByTestId("export-menu").click();
      const download = page.waitForEvent("download");
      await page.getByTestId(`export-${kind}`).click();
      const file = await download;
      const target = path.join(work, file.suggestedFilename());
      await file.saveAs(target);
      return { name: file.suggestedFilename(), bytes: await readFile(target) };
    };
    // The menu: speaker/time choices above the formats, the original file and the link below.
    await page.getByTestId("export-menu").click();
    await expect.poll(() => page.getByTestId("export-with-speaker").isChecked()).toBe(true);
    await shot(page, "detail-export-menu-desktop-zh");
    await page.keyboard.press("Escape");
    const word = await exportAs("word");
    expect(word.name).toBe("budget-meeting.docx");
    expect(word.bytes.subarray(0, 2).toString()).toBe("PK"); // a .docx is a zip
    expect(word.bytes.length).toBeGreaterThan(1000);

    const srt = await exportAs("srt");
    expect(srt.name).toBe("budget-meeting.srt");
    const text = srt.bytes.toString("utf8");
    expect(text).toMatch(/^\uFEFF?1\r?\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}/);
    expect(text).toContain(EDITED);
  });

  it("works at phone width: cards, player over text, no sideways scrolling", async () => {
    const phonePage = await context.newPage();
    await phonePage.setViewportSize(PHONE);
    await phonePage.goto(`${server.baseUrl}/audio-list`);
    await phonePage.locator('[data-testid^="record-"]').first().waitFor();
    // The page's own content must fit; the shared header is checked by the shell test.
    const overflow = () =>
      phonePage.evaluate(() => {
        const main = document.querySelector("main");
        if (!main) return Number.POSITIVE_INFINITY;
        return Math.max(
          main.scrollWidth - main.clientWidth,
          Math.ceil(main.getBoundingClientRect().right - window.innerWidth),
        );
      });
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(phonePage, "audio-list-phone-zh");

    await phonePage.goto(detailUrl);
    await phonePage.getByTestId("segment").first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    const player = await phonePage.getByTestId("player").boundingBox();
    const text = await phonePage.getByTestId("segment").first().boundingBox();
    expect(player && text && player.y < text.y).toBe(true);
    await shot(phonePage, "detail-phone-zh");

    await phonePage.goto(`${server.baseUrl}/transaudio`);
    await phonePage.getByTestId("upload-zone").waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(phonePage, "transaudio-phone-zh");
    await phonePage.close();
  });

  it("records in the browser (a fake microphone) and uploads the recording", async () => {
    // A browser of its own: Chromium's fake capture device stands in for a microphone.
    const recorderBrowser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
      ],
    });
    try {
      const recContext = await recorderBrowser.newContext({ viewport: DESKTOP, locale: "zh-CN" });
      await recContext.addCookies(await context.cookies());
      await recContext.grantPermissions(["microphone"], { origin: server.baseUrl });
      const p = await recContext.newPage();
      await p.goto(`${server.baseUrl}/transaudio`);
      // one click records (issue 43), the recorder in view at 1280×800
      await p.getByRole("button", { name: "开始录音" }).click();
      await p.getByTestId("recorder-stop").waitFor();
      expect(await p.getByTestId("recorder").isVisible()).toBe(true);
      const box = await p.getByTestId("live-captions").boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(DESKTOP.height);
      await expect.poll(() => p.getByTestId("recorder-time").innerText(), { timeout: 10_000 }).toBe("0:03");
      const level = Number(await p.getByRole("meter").getAttribute("aria-valuenow"));
      expect(level).toBeGreaterThanOrEqual(0);
      await shot(p, "transaudio-recording-desktop-zh");
      await p.getByTestId("recorder-stop").click();
      const item = p.getByTestId("upload-item").filter({ hasText: "录音-" });
      await item.waitFor();
      const name = await item.locator(".upload-item-name").innerText();
      // Chromium records WebM/Opus, uploaded under its own name (issue 29), not relabelled
      expect(name).toMatch(/^录音-\d{8}-\d{6}\.webm$/);
      await item.getByText("上传完成").waitFor({ timeout: 30_000 });
    } finally {
      await recorderBrowser.close();
    }
  });

  it("moves the record to the recycle bin and restores it", async () => {
    await page.goto(`${server.baseUrl}/audio-list`);
    const row = page.locator('[data-testid^="record-"]').filter({ hasText: "budget-meeting.wav" });
    await row.getByRole("button", { name: /^更多/ }).click();
    await page.getByRole("button", { name: "删除" }).click();
    await page.getByRole("dialog").getByTestId("confirm").click();
    await row.waitFor({ state: "detached" });
    await page.goto(`${server.baseUrl}/recycle-bin`);
    const binned = page.locator('[data-testid^="record-"]').filter({ hasText: "budget-meeting.wav" });
    await binned.waitFor();
    await shot(page, "recycle-bin-desktop-zh");
    await binned.getByRole("button", { name: "恢复" }).click();
    await binned.waitFor({ state: "detached" });
  });

  it("speaks English too (?lang=en)", async () => {
    await page.goto(`${server.baseUrl}/audio-list?lang=en`);
    const row = page.locator('[data-testid^="record-"]').filter({ hasText: "budget-meeting.wav" });
    await row.waitFor();
    expect(await row.getByTestId("record-status").innerText()).toBe("Complete");
    await shot(page, "audio-list-desktop-en");
    await page.goto(detailUrl);
    await page.getByTestId("segment").first().waitFor();
    await page.getByRole("searchbox", { name: "Search in the transcript" }).waitFor();
    await shot(page, "detail-desktop-en");
    // the side tabs fit whole, "Hot words" not cut off, at 1280 px and at 390 px (issue 43)
    const hotWords = page.getByRole("tab", { name: "Hot words" });
    const fits = async () => {
      const list = await page.locator(".detail-side .tabs-list").evaluate((l) => l.scrollWidth - l.clientWidth);
      const box = await hotWords.boundingBox();
      const width = page.viewportSize()?.width ?? 0;
      return list <= 0 && box !== null && box.x >= 0 && box.x + box.width <= width;
    };
    expect(await fits()).toBe(true);
    await page.setViewportSize(PHONE);
    await page.getByRole("button", { name: "Summary · Chapters · Ask" }).click();
    await expect.poll(fits).toBe(true);
    await shot(page, "detail-phone-notes-en");
    await page.setViewportSize(DESKTOP);
  });
});
