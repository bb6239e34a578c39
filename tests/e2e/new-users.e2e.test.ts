import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, launchBrowser, PHONE, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { callApi, signInNewUser } from "./helpers/session.ts";

/**
 * What new users ran into (issue 8), in real Chromium against the real server: an account in its
 * deletion grace period signing in on an inner page, English pages with Chinese left in them,
 * phone-width help tabs and check-in cells, quotas under an hour, the length limits of the upload
 * box, and the satisfaction page. Screenshots land in tests/e2e/screenshots/ (git-ignored).
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
const phone = `137${String(Date.now()).slice(-8)}`;

beforeAll(async () => {
  // The workers run in this server's process (no Redis): see records.e2e.test.ts for why.
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer({ WORKER_MODE: "embedded" });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: DESKTOP, locale: "zh-CN" });
  // Signed in through the local-host dev login, the survey answered and the gifts announced, so
  // the pages under test are not covered by onboarding (the shell test covers that).
  await signInNewUser(context, server.baseUrl, phone, { checkIn: false });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** POSTs a JSON body through the browser context (its cookies), expecting the success envelope. */
async function _call(pathname: string, data: unknown = {}) {
  await callApi(context, server.baseUrl, pathname, data);
}

async function newPage(viewport = DESKTOP, lang: "zh" | "en" = "zh"): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  // The language is remembered per browser: set it before the app reads it.
  await page.addInitScript((l) => localStorage.setItem("lang", l), lang);
  return page;
}

/** Status codes of every /voice_yuelu JSON answer the page receives. */
function watchStatusCodes(page: Page): number[] {
  const codes: number[] = [];
  page.on("response", async (response) => {
    if (!response.url().includes("/voice_yuelu/")) return;
    if (!(response.headers()["content-type"] ?? "").includes("application/json")) return;
    try {
      codes.push(((await response.json()) as { status_code: number }).status_code);
    } catch {
      // a body that is gone with a navigation
    }
  });
  return codes;
}

/**
 * How many lines of text each matching element takes and whether its text fits its width: a tab
 * or a cell squeezed into a tall narrow column shows many lines, or text wider than its box.
 */
async function textLayout(page: Page, selector: string) {
  return page.$$eval(selector, (elements) =>
    elements.map((el) => {
      const style = getComputedStyle(el);
      const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.55;
      const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
      const rect = el.getBoundingClientRect();
      return {
        text: (el as HTMLElement).innerText,
        lines: Math.round((rect.height - padding) / lineHeight),
        overflows: el.scrollWidth > el.clientWidth + 1,
        width: Math.round(rect.width),
      };
    }),
  );
}

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe("an account in its deletion grace period", () => {
  it("signing in on an inner page sees the warning, stays signed in, and can abandon the deletion", async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/vip`);
    await page.getByTestId("user-menu").waitFor({ timeout: 15_000 });
    // Ask for the deletion as the account page would: a same-origin request from the page.
    const deletion = await page.evaluate(async () => {
      const res = await fetch("/voice_yuelu/api/v3/user/delete_account", { method: "POST" });
      return (await res.json()) as { status_code: number; data: { status: number } };
    });
    expect(deletion).toMatchObject({ status_code: 1, data: { status: 1 } });

    const codes = watchStatusCodes(page);
    await page.goto(`${server.baseUrl}/audio-list`);
    const dialog = page.getByRole("dialog", { name: "账号注销中" });
    await dialog.waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1000); // anything else that wanted to load would have by now; the dialog has settled
    await shot(page, "deletion-warning-desktop-zh");
    // Only the warning: no page behind it, no call answered 10006, still signed in.
    expect(await page.getByTestId("records-table").count()).toBe(0);
    expect(await page.getByTestId("user-menu").count()).toBe(0);
    expect(codes).not.toContain(10006);
    expect(codes).toEqual([1]);
    const cookies = (await context.cookies()).map((c) => c.name);
    expect(cookies).toContain("sid");
    expect(cookies).toContain("userid");
    expect(new URL(page.url()).pathname).toBe("/audio-list");

    const phonePage = await newPage(PHONE);
    await phonePage.goto(`${server.baseUrl}/transaudio`);
    await phonePage.getByRole("dialog", { name: "账号注销中" }).waitFor({ timeout: 15_000 });
    expect(await pageOverflow(phonePage)).toBeLessThanOrEqual(0);
    await phonePage.waitForTimeout(300); // the dialog's entrance animation
    await shot(phonePage, "deletion-warning-phone-zh");
    await phonePage.close();

    // Abandon: the deletion is cancelled, the page reloads, and My records works.
    const reloaded = page.waitForEvent("load");
    await dialog.getByRole("button", { name: "放弃注销" }).click();
    await reloaded;
    await page.getByText("还没有记录，上传一个音视频文件开始转写吧").waitFor({ timeout: 15_000 });
    await page.getByTestId("user-menu").waitFor();
    expect(await page.getByRole("dialog", { name: "账号注销中" }).count()).toBe(0);
    await shot(page, "deletion-abandoned-audio-list-desktop-zh");
    await page.close();
  });
});

describe("phone widths (390 px)", () => {
  for (const lang of ["zh", "en"] as const) {
    it(`help tabs stay on one line each (${lang})`, async () => {
      const page = await newPage(PHONE, lang);
      await page.goto(`${server.baseUrl}/helpDocument`);
      await page.getByTestId("help-tabs").getByRole("button").first().waitFor({ timeout: 15_000 });
      const tabs = await textLayout(page, '[data-testid="help-tabs"] button');
      expect(tabs.length).toBeGreaterThan(2);
      for (const tab of tabs) {
        expect(tab.lines, `tab "${tab.text}" wraps into ${tab.lines} lines (${tab.width}px wide)`).toBeLessThanOrEqual(
          2,
        );
        expect(tab.overflows, `tab "${tab.text}" overflows`).toBe(false);
      }
      // The strip scrolls sideways on its own; the page does not.
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `help-phone-${lang}`);
      await page.close();
    });

    it(`check-in calendar cells fit their text (${lang})`, async () => {
      const page = await newPage(PHONE, lang);
      await page.goto(`${server.baseUrl}/transaudio`);
      await page.getByTestId("rewards").click({ timeout: 15_000 });
      await page.getByTestId("checkin-day").first().waitFor({ timeout: 15_000 });
      const cells = await textLayout(page, '[data-testid="checkin-day"] > span:not(.checkin-tick)');
      expect(cells.length).toBeGreaterThanOrEqual(28 * 3);
      for (const cell of cells) {
        expect(cell.lines, `"${cell.text}" wraps into ${cell.lines} lines (${cell.width}px)`).toBeLessThanOrEqual(1);
        expect(cell.overflows, `"${cell.text}" is wider than its cell (${cell.width}px)`).toBe(false);
      }
      const days = await page.$$eval('[data-testid="checkin-day"]', (els) =>
        els.slice(0, 7).map((el) => Math.round(el.getBoundingClientRect().top)),
      );
      expect(new Set(days).size, "7 days a row").toBe(1);
      await page.waitForTimeout(300); // the dialog's entrance animation
      await shot(page, `checkin-phone-${lang}`);
      await page.close();
    });
  }
});

describe("the English UI", () => {
  it("has no Chinese in the pages a new user sees (the default nickname reads 'User 1234')", async () => {
    const page = await newPage(DESKTOP, "en");
    const cjk = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/u;
    for (const path of ["/personalInfo", "/transaudio", "/audio-list", "/helpDocument"]) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByTestId("user-menu").waitFor({ timeout: 15_000 });
      await page.waitForLoadState("networkidle");
      const text = await page.locator("main").innerText();
      const chinese = text.split("\n").filter((line) => cjk.test(line));
      expect(chinese, `${path} shows Chinese`).toEqual([]);
    }
    await page.goto(`${server.baseUrl}/personalInfo`);
    await page.getByTestId("profile").waitFor();
    expect(await page.getByTestId("profile").innerText()).toContain(`User ${phone.slice(-4)}`);
    expect(await page.getByTestId("user-name").innerText()).toBe(`User ${phone.slice(-4)}`);
    await shot(page, "personal-info-desktop-en");
    await page.close();
  });
});

describe("quotas and limits", () => {
  it("quota bars read in minutes under an hour, and the upload box states both length limits", async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/transaudio`);
    const today = page.getByTestId("quota-today");
    await today.waitFor({ timeout: 15_000 });
    expect(await today.innerText()).toMatch(/已用 0 分钟 \/ \d+ 小时 · 0%/);
    expect(await page.getByTestId("quota-total").innerText()).toMatch(/已用 0 分钟 \/ 3 小时/);
    const limits = await page.getByTestId("upload-limits").innerText();
    expect(limits).toContain("单个文件最大 1 GB、5 小时");
    expect(limits).toContain("每个文件最长转写 3 小时");
    await shot(page, "transaudio-limits-desktop-zh");
    const phonePage = await newPage(PHONE, "en");
    await phonePage.goto(`${server.baseUrl}/transaudio`);
    const enLimits = await phonePage.getByTestId("upload-limits").innerText({ timeout: 15_000 });
    expect(enLimits).toContain("Files up to 1 GB and 5 hours");
    expect(enLimits).toContain("Transcription: up to 3 hours per file");
    expect(await pageOverflow(phonePage)).toBeLessThanOrEqual(0);
    await shot(phonePage, "transaudio-limits-phone-en");
    await phonePage.close();
    await page.close();
  });
});

describe("/tranSatis", () => {
  it("stores the rating on the server and thanks only then", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${server.baseUrl}/tranSatis?fileId=1`);
    const submit = page.getByTestId("satisfaction-submit");
    await submit.waitFor({ timeout: 15_000 });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByText("非常满意", { exact: true }).click();
    await page.getByRole("textbox").fill("转写很准");
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, "satisfaction-phone-zh");
    const stored = page.waitForResponse((r) => r.url().includes("/api/v1/satisfaction/add"));
    await submit.click();
    const body = (await (await stored).json()) as { status_code: number; data: { id: number } };
    expect(body.status_code).toBe(1);
    expect(body.data.id).toBeGreaterThan(0);
    await page.getByRole("status").filter({ hasText: "感谢你的反馈！" }).waitFor();
    await shot(page, "satisfaction-thanks-phone-zh");
    await page.close();
  });

  it("lays the five ratings out at phone width in English too", async () => {
    const page = await newPage(PHONE, "en");
    await page.goto(`${server.baseUrl}/tranSatis`);
    await page.getByTestId("satisfaction-submit").waitFor({ timeout: 15_000 });
    const labels = await textLayout(page, ".satis-label");
    expect(labels).toHaveLength(5);
    for (const label of labels) {
      expect(label.lines, `"${label.text}" takes ${label.lines} lines`).toBeLessThanOrEqual(2);
      expect(label.overflows, `"${label.text}" is wider than its card`).toBe(false);
    }
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, "satisfaction-phone-en");
    await page.close();
  });
});
