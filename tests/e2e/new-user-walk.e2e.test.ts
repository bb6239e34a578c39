import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentWav, storeTranscript } from "./helpers/big-transcript.ts";
import { contextIn, DESKTOP, launchBrowser, PHONE, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { callApi, signInNewUser } from "./helpers/session.ts";

/**
 * Issue 30: the walk a new user took in real Chromium, at 1280 and 390 px, in Chinese and English —
 * each thing that tripped them up, checked as they met it: double clicks that did things twice,
 * dialogs stacked over each other, a 100-character name that pushed the page sideways, the consent
 * line cut off in the phone's sign-in frame, 'Speaker 1' in the Chinese UI, and the smaller ones
 * (a message shown but still unread, quotes stored as %22, two sizes for one upload, the sidebar's
 * background, a wrapping sidebar item).
 */
let server: RunningServer;
let browser: Browser;
let work: string;
let serial = 0;
const stamp = String(Date.now()).slice(-6);
const LONG_NAME = `${"二〇二六年第三季度产品规划与用户研究访谈录音".repeat(5).slice(0, 96)}.wav`;
const WAV = silentWav(2);

beforeAll(async () => {
  expect([...LONG_NAME].length).toBe(100);
  work = await mkdtemp(path.join(tmpdir(), "yuelu-walk-e2e-"));
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL; // see records.e2e.test.ts: queues in this server's own database
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
  if (work) await rm(work, { recursive: true, force: true });
});

function nextPhone(): string {
  serial += 1;
  return `135${stamp}${String(serial).padStart(2, "0")}`;
}

async function userContext(
  lang: "zh" | "en",
  viewport: { width: number; height: number },
  options: { checkIn?: boolean } = {},
): Promise<BrowserContext> {
  const context = await contextIn(browser, viewport, lang, { acceptDownloads: true });
  await signInNewUser(context, server.baseUrl, nextPhone(), options);
  return context;
}

async function uploadThroughApi(context: BrowserContext, name: string): Promise<number> {
  const res = await context.request.post(`${server.baseUrl}/voice_yuelu/api/v1/audio/upload`, {
    multipart: { file: { name, mimeType: "audio/wav", buffer: WAV } },
  });
  const body = (await res.json()) as { status_code: number; data: { fileId: number; fileName: string } };
  expect(body.status_code).toBe(1);
  expect(body.data.fileName).toBe(name);
  return body.data.fileId;
}

/** GETs an API call through the browser context (its cookies), expecting the success envelope. */
async function getApi<T>(context: BrowserContext, pathname: string): Promise<T> {
  const res = await context.request.get(`${server.baseUrl}/voice_yuelu${pathname}`);
  const body = (await res.json()) as { status_code: number; status_msg: string; data: T };
  expect(body.status_code, `${pathname}: ${body.status_msg}`).toBe(1);
  return body.data;
}

/** Requests to `fragment` the page sends from now on. */
function countRequests(page: Page, fragment: string): () => number {
  let n = 0;
  page.on("request", (r) => {
    if (r.method() !== "GET" && r.url().includes(fragment)) n += 1;
  });
  return () => n;
}

/** How far the page scrolls sideways (0: not at all). */
const sideways = (page: Page) =>
  page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));

/** The most app dialogs that were ever open at once in this page (counted on every DOM change). */
async function watchDialogs(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { maxDialogs: number; dialogNames: string[] };
    w.maxDialogs = 0;
    w.dialogNames = [];
    new MutationObserver(() => {
      const open = Array.from(document.querySelectorAll(".dialog-content"));
      w.maxDialogs = Math.max(w.maxDialogs, open.length);
      for (const d of open) {
        const name = d.querySelector(".dialog-title")?.textContent ?? "?";
        if (!w.dialogNames.includes(name)) w.dialogNames.push(name);
      }
    }).observe(document, { childList: true, subtree: true });
  });
}
const maxDialogs = (page: Page) => page.evaluate(() => (window as unknown as { maxDialogs: number }).maxDialogs);
const errorToasts = (page: Page) => page.locator('[data-sonner-toast][data-type="error"]').count();

describe("double clicks do one thing", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await userContext("zh", DESKTOP);
    await uploadThroughApi(context, "双击测试.wav");
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/audio-list`);
    await page.locator('[data-testid^="record-"]').first().waitFor({ timeout: 15_000 });
  });
  afterAll(() => context?.close());

  it("new folder: one request, the dialog closes, no red toast, one folder", async () => {
    const creates = countRequests(page, "/api/v2/menu/create");
    await page.getByTestId("folder-create").click();
    const dialog = page.getByRole("dialog", { name: "新建文件夹" });
    await dialog.getByRole("textbox").fill("周会");
    await dialog.getByRole("button", { name: "确定" }).dblclick();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("文件夹已创建").waitFor();
    expect(creates()).toBe(1);
    expect(await errorToasts(page)).toBe(0);
    const menus = await getApi<{ menuName: string }[]>(context, "/api/v2/menu/sound_list?source=0");
    expect(menus.filter((m) => m.menuName === "周会")).toHaveLength(1);

    // a name already in use is said at the field, in words, and nothing is sent
    await page.getByTestId("folder-create").click();
    await dialog.getByRole("textbox").fill("周会");
    await dialog.getByRole("button", { name: "确定" }).click();
    expect(await dialog.getByRole("alert").innerText()).toBe("已有同名文件夹，请换一个名称");
    expect(creates()).toBe(1);
    await page.keyboard.press("Escape");
  });

  it("rename: one request however fast the clicks", async () => {
    const renames = countRequests(page, "/api/v1/audio/record/update_record");
    await page.getByRole("button", { name: "更多 双击测试.wav" }).click();
    await page.getByRole("button", { name: "重命名" }).click();
    const dialog = page.getByRole("dialog", { name: "重命名" });
    await dialog.getByRole("textbox").fill("双击改名.wav");
    await dialog.getByRole("button", { name: "确定" }).dblclick();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("双击改名.wav").first().waitFor();
    expect(renames()).toBe(1);
    expect(await errorToasts(page)).toBe(0);
  });

  it("开始转写: one request, one task", async () => {
    const starts = countRequests(page, "/dictation_batch");
    const row = page.locator('[data-testid^="record-"]').filter({ hasText: "双击改名.wav" });
    await row.getByRole("button", { name: "转写" }).click();
    const confirm = page.getByTestId("confirm-transcribe");
    await confirm.waitFor();
    // nothing is preselected for a Chinese user while Chinese is not installed here (issue 41): choose English
    await page.getByRole("dialog").getByRole("radio", { name: /英文/ }).check();
    await confirm.dblclick();
    await confirm.waitFor({ state: "detached", timeout: 10_000 });
    expect(starts()).toBe(1);
    expect(await errorToasts(page)).toBe(0);
  });

  it("立即购买: one order for one plan", async () => {
    await page.goto(`${server.baseUrl}/vip`);
    await page.getByTestId("vip-buy-7").dblclick();
    await expect.poll(() => page.getByTestId("pay-qr").getAttribute("data-phase"), { timeout: 15_000 }).toBe("open");
    await page.waitForTimeout(500); // anything a second click set off has arrived by now
    const orders = await getApi<{ total: number; list: { goodsId: number }[] }>(
      context,
      "/api/v1/store/pay_order_list?page=1&pageSize=20",
    );
    expect(orders.total).toBe(1);
    expect(orders.list[0]?.goodsId).toBe(7);
  });
});

describe("one modal at a time; the check-in invitation does not nag (issue 43)", () => {
  it("not on /vip (nor behind its cashier) or over a transcript; once on My records, not again that day", async () => {
    const context = await userContext("zh", DESKTOP, { checkIn: false });
    const fileId = await uploadThroughApi(context, "签到测试.wav");
    await storeTranscript(
      server.query,
      fileId,
      [{ spkName: "说话人1", startTime: 0, endTime: 2000, text: "签到。" }] as never,
      2,
    );
    await watchDialogs(context);
    const page = await context.newPage();
    const rewards = page.getByRole("dialog", { name: "福利中心" });
    await page.goto(`${server.baseUrl}/vip`);
    await page.getByTestId("vip-buy-7").click();
    const cashier = page.getByRole("dialog", { name: "收银台" });
    await cashier.waitFor();
    await page.waitForTimeout(2500); // the invitation's delay is 1.5 s
    expect(await rewards.count()).toBe(0);
    await page.keyboard.press("Escape");
    await cashier.waitFor({ state: "detached" });
    await page.waitForTimeout(2500);
    expect(await rewards.count()).toBe(0);

    await page.goto(
      `${server.baseUrl}/detail?fileId=${fileId}&timeLen=2&fileName=${encodeURIComponent("签到测试.wav")}`,
    );
    await page.getByTestId("segment").first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(2500);
    expect(await rewards.count()).toBe(0);

    await page.goto(`${server.baseUrl}/audio-list`);
    await rewards.waitFor({ timeout: 5000 });
    expect(await maxDialogs(page)).toBe(1);
    await page.keyboard.press("Escape");
    await rewards.waitFor({ state: "detached" });

    // loaded again the same day: nothing opens; the reward centre is one click away
    await page.reload();
    await page.getByTestId(`record-${fileId}`).waitFor({ timeout: 15_000 });
    await page.waitForTimeout(2500);
    expect(await rewards.count()).toBe(0);
    await page.getByTestId("rewards").click();
    await rewards.waitFor();
    await context.close();
  });

  it("never interrupts an upload: it waits on My records until the file is sent", async () => {
    const context = await userContext("en", PHONE, { checkIn: false });
    await watchDialogs(context);
    const page = await context.newPage();
    // a slow connection: the upload takes 4 s
    let sent = false;
    await page.route("**/api/v1/audio/upload*", async (route) => {
      await new Promise((r) => setTimeout(r, 4000));
      await route.continue();
      sent = true;
    });
    await page.goto(`${server.baseUrl}/transaudio`);
    await page.getByTestId("file-input").setInputFiles({ name: "slow.wav", mimeType: "audio/wav", buffer: WAV });
    // off to My records in the app while it is sent (the upload goes on)
    await page.locator('.side-nav a[href="/audio-list"]').click();
    await page.waitForURL("**/audio-list");
    await page.waitForTimeout(2000); // past the invitation's 1.5 s delay, before the upload is over
    expect(sent).toBe(false);
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.getByRole("dialog", { name: "Rewards" }).waitFor({ timeout: 15_000 });
    expect(sent).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/audio-list");
    expect(await maxDialogs(page)).toBe(1);
    await context.close();
  });
});

describe("a 100-character name", () => {
  for (const [lang, viewport, label] of [
    ["zh", DESKTOP, "desktop-zh"],
    ["en", DESKTOP, "desktop-en"],
    ["zh", PHONE, "phone-zh"],
    ["en", PHONE, "phone-en"],
  ] as const) {
    it(`truncates with an ellipsis and a tooltip, nothing scrolls sideways (${label})`, async () => {
      const context = await userContext(lang, viewport);
      const fileId = await uploadThroughApi(context, LONG_NAME);
      const line = { spkName: "说话人1", startTime: 0, endTime: 2000, text: "长名字的记录。" };
      await storeTranscript(server.query, fileId, [line] as never, 2);
      const binned = await uploadThroughApi(context, `${`回收站-${LONG_NAME}`.slice(0, 96)}.wav`);
      await callApi(context, server.baseUrl, "/api/v1/audio/record/delete_record", { fileId: binned });
      const page = await context.newPage();

      await page.goto(`${server.baseUrl}/audio-list`);
      const row = page.getByTestId(`record-${fileId}`);
      await row.waitFor({ timeout: 15_000 });
      expect(await sideways(page)).toBe(0);
      const cell = row.locator("td.col-name");
      expect(await cell.locator("a").getAttribute("title")).toBe(LONG_NAME);
      const fit = await cell.evaluate((el) => ({
        cut: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
        ellipsis: getComputedStyle(el).textOverflow === "ellipsis" || getComputedStyle(el).webkitLineClamp === "2",
      }));
      expect(fit).toEqual({ cut: true, ellipsis: true });
      // the row's actions stay inside the row and the window
      const rowBox = await row.boundingBox();
      for (const action of [
        row.getByRole("link", { name: lang === "zh" ? "查看" : "Open" }),
        row.getByRole("button", { name: `${lang === "zh" ? "更多" : "More"} ${LONG_NAME}` }),
      ]) {
        const box = await action.boundingBox();
        expect(box && rowBox && box.x + box.width <= rowBox.x + rowBox.width + 0.5).toBe(true);
        expect(box && box.x + box.width <= viewport.width).toBe(true);
      }
      await shot(page, `walk-long-name-${label}`);

      await page.goto(`${server.baseUrl}/recycle-bin`);
      await page.getByTestId(`record-${binned}`).waitFor({ timeout: 15_000 });
      expect(await sideways(page)).toBe(0);

      await page.goto(`${server.baseUrl}/detail?fileId=${fileId}&timeLen=2&fileName=${encodeURIComponent(LONG_NAME)}`);
      await page.getByTestId("segment").first().waitFor({ timeout: 15_000 });
      expect(await sideways(page)).toBe(0);
      await shot(page, `walk-long-name-detail-${label}`);
      await context.close();
    });
  }
});

describe("the sign-in frame on a phone", () => {
  for (const lang of ["zh", "en"] as const) {
    it(`shows the consent line and its two links without scrolling (${lang}, 390 px)`, async () => {
      const context = await contextIn(browser, PHONE, lang);
      const page = await context.newPage();
      await page.goto(server.baseUrl);
      await page.getByTestId("login-button").first().click();
      const frameElement = page.getByTestId("login-frame");
      const frame = page.frameLocator('[data-testid="login-frame"]');
      const agree = frame.locator("#agree");
      await agree.waitFor();
      await expect
        .poll(() => frameElement.evaluate((f) => f.getBoundingClientRect().height), { timeout: 5000 })
        .toBeGreaterThan(400);
      // the frame shows its whole page: the consent line's bottom is inside the frame's window
      const inFrame = await agree.evaluate((el) => ({
        bottom: el.getBoundingClientRect().bottom,
        height: window.innerHeight,
        scrolls: document.documentElement.scrollHeight > window.innerHeight,
      }));
      expect(inFrame.scrolls).toBe(false);
      expect(inFrame.bottom).toBeLessThanOrEqual(inFrame.height);
      // and the frame is inside the phone's screen, the dialog not scrolled
      const frameBox = await frameElement.boundingBox();
      expect(frameBox && frameBox.y + frameBox.height <= PHONE.height).toBe(true);
      const links = agree.getByRole("link");
      expect(await links.count()).toBe(2);
      expect(await links.nth(0).getAttribute("href")).toContain("doc=agreement");
      expect(await links.nth(1).getAttribute("href")).toContain("doc=privacy");
      expect(await links.nth(0).innerText()).toBe(lang === "zh" ? "《用户协议》" : "User Agreement");
      await shot(page, `walk-login-phone-${lang}`);
      await context.close();
    });
  }
});

describe("speaker labels in the user's language", () => {
  const STORED = [
    { spkName: "Speaker 1", startTime: 0, endTime: 800, text: "And so, my fellow Americans." },
    { spkName: "Speaker 2", startTime: 800, endTime: 1600, text: "Ask not what your country can do for you." },
    { spkName: "Speaker 1", startTime: 1600, endTime: 2000, text: "Thank you." },
  ];
  for (const [lang, viewport, label, pattern] of [
    ["zh", DESKTOP, "desktop-zh", /^说话人[12]$/],
    ["zh", PHONE, "phone-zh", /^说话人[12]$/],
    ["en", DESKTOP, "desktop-en", /^Speaker [12]$/],
    ["en", PHONE, "phone-en", /^Speaker [12]$/],
  ] as const) {
    it(`an English recording's default labels read as the UI's language (${label})`, async () => {
      const context = await userContext(lang, viewport);
      const fileId = await uploadThroughApi(context, "jfk.wav");
      await storeTranscript(server.query, fileId, STORED as never, 2);
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/detail?fileId=${fileId}&timeLen=2&fileName=jfk.wav`);
      await page.getByTestId("segment").first().waitFor({ timeout: 15_000 });
      const names = await page.locator(".speaker-name").allInnerTexts();
      expect(names).toHaveLength(3);
      for (const name of names) expect(name).toMatch(pattern);

      if (viewport === DESKTOP) {
        await page.getByTestId("export-menu").click();
        const download = page.waitForEvent("download");
        await page.getByTestId("export-txt").click();
        const file = await download;
        const target = path.join(work, `${label}-${file.suggestedFilename()}`);
        await file.saveAs(target);
        const text = await readFile(target, "utf8");
        expect(text).toContain(lang === "zh" ? "说话人1" : "Speaker 1");
        expect(text).not.toContain(lang === "zh" ? "Speaker" : "说话人");
      }
      await context.close();
    });
  }
});

describe("smaller things a careful user notices", () => {
  it("showing the first message reads it: its dot goes and the unread count drops", async () => {
    const context = await userContext("zh", DESKTOP);
    const before = await callApi<{ unreadSize: number }>(context, server.baseUrl, "/notify/get_unread_size");
    expect(before.unreadSize).toBeGreaterThan(0);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/transaudio`);
    await page.getByTestId("unread").click();
    const list = page.getByTestId("message-list");
    await list.waitFor();
    const first = list.locator("button").first();
    await expect.poll(() => first.getAttribute("data-read")).toBe("1");
    await expect
      .poll(
        async () =>
          (await callApi<{ unreadSize: number }>(context, server.baseUrl, "/notify/get_unread_size")).unreadSize,
      )
      .toBe(before.unreadSize - 1);
    await context.close();
  });

  it("a name typed with quotes is stored as typed; the upload shows one size throughout", async () => {
    const context = await userContext("zh", DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/transaudio`);
    const name = 'jfk 演讲 "quote".wav';
    const buffer = silentWav(11); // 344 KB: 1024-byte steps show one decimal
    await page.getByTestId("file-input").setInputFiles({ name, mimeType: "audio/wav", buffer });
    await page.getByText("上传完成").first().waitFor({ timeout: 30_000 });
    const shown = await page.getByTestId("upload-bytes").innerText();
    const size = `${(buffer.length / 1024).toFixed(1)}KB`;
    expect(shown).toContain(`${size} / ${size}`);

    await page.goto(`${server.baseUrl}/audio-list`);
    const row = page.locator('[data-testid^="record-"]').filter({ hasText: "quote" });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.locator("td.col-name").innerText()).toBe(name);
    expect(await row.innerText()).toContain(size);
    await context.close();
  });

  for (const [lang, viewport] of [
    ["zh", PHONE],
    ["en", PHONE],
    ["zh", DESKTOP],
  ] as const) {
    it(`a card with a minute used reads hours and minutes in the header, which still fits (${lang}, ${viewport.width} px)`, async () => {
      const context = await userContext(lang, viewport);
      const userId = Number((await context.cookies()).find((c) => c.name === "userid")?.value);
      await server.query(`UPDATE time_cards SET remaining = remaining - 60 WHERE "userId" = $1`, [userId]);
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/audio-list`);
      const card = page.getByTestId("time-card");
      await expect.poll(() => card.innerText(), { timeout: 15_000 }).toContain(lang === "zh" ? "2小时59分" : "2h 59m");
      expect(await sideways(page)).toBe(0);
      const box = await card.boundingBox();
      expect(box && box.x + box.width <= viewport.width).toBe(true);
      // nothing in the header is squeezed to make room (the language switch keeps its button)
      const switchBox = await page.locator(".lang-switch").boundingBox();
      expect(switchBox?.width).toBeGreaterThanOrEqual(28);
      await shot(page, `walk-time-card-${lang}-${viewport.width}`);
      // the card list says it in full
      await page.goto(`${server.baseUrl}/personalInfo?menu=timeCards`);
      await expect
        .poll(() => page.getByTestId("time-card-list").innerText(), { timeout: 15_000 })
        .toContain(lang === "zh" ? "2 小时 59 分钟" : "2 h 59 min");
      await context.close();
    });
  }

  it("the sidebar keeps its background to the foot of a long page, and no English item wraps", async () => {
    const context = await userContext("en", DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/vip`);
    await page.getByTestId("vip-buy-7").waitFor({ timeout: 15_000 });
    const items = await page
      .locator(".side-nav-item")
      .evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent, overflow: el.scrollWidth - el.clientWidth, height: el.clientHeight })),
      );
    for (const item of items) expect(item, item.text ?? "").toMatchObject({ overflow: 0, height: 40 });

    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, "the page must be longer than one screen").toBeGreaterThan(DESKTOP.height + 100);
    const png = await page.screenshot({ fullPage: true });
    const decoder = await context.newPage();
    const colours = await decoder.evaluate(
      async ({ data, y }) => {
        const blob = new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: "image/png" });
        const bitmap = await createImageBitmap(blob);
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const g = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
        g.drawImage(bitmap, 0, 0);
        const at = (x: number) => [...g.getImageData(x, y, 1, 1).data.slice(0, 3)];
        return { sidebar: at(100), main: at(800) };
      },
      { data: png.toString("base64"), y: height - 10 },
    );
    expect(colours.sidebar).toEqual([255, 255, 255]);
    expect(colours.main).not.toEqual([255, 255, 255]);
    await context.close();
  });
});
