import { mkdir } from "node:fs/promises";
import path from "node:path";
import { maskGiftCode } from "@yuelu/contracts";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextIn, DESKTOP, launchBrowser, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * The operator console end to end in real Chromium against the real server (docs/admin.md): an
 * account made an operator with the command line (`npm run admin -- grant <phone>`) opens /admin,
 * changes a membership plan's price and creates a batch of gift codes; an ordinary user sees the
 * new price on /vip and redeems one of the codes; the operator sees its use counted. Someone
 * without the role is told how it is granted; the console fits a 375-pixel phone, and speaks English.
 * Screenshots (admin-*.png) land in tests/e2e/screenshots/ (git-ignored), the English ones in
 * /tmp/admin-shots/en-*.png. Needs `npm run build` and chromium.
 */
const PHONE = { width: 375, height: 812 };
const stamp = String(Date.now()).slice(-7);
const adminPhone = `1390${stamp}`;
const userPhone = `1391${stamp}`;
const batch = `e2e-${stamp}`;
/** plan 9 (the yearly plan, ¥336 of ¥414 as seeded) */
const PLAN = 9;

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let user: BrowserContext;
let codes: string[] = [];

beforeAll(async () => {
  // Its own queues in its own database, as records.e2e explains: no shared Redis.
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer();
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

async function newContext(viewport = DESKTOP): Promise<BrowserContext> {
  const context = await contextIn(browser, viewport, "zh");
  contexts.push(context);
  return context;
}

/** A screenshot once entry animations are over (spinners spin on: they never end). */
async function snap(page: Page, name: string) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  await shot(page, name);
}

/** The English pages' screenshots, to look at beside the Chinese ones. */
const EN_SHOTS = "/tmp/admin-shots";
async function snapEn(page: Page, name: string) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  await mkdir(EN_SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(EN_SHOTS, `en-${name}.png`), fullPage: false });
}
const CJK = /[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]/u;

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe("the operator console", () => {
  it("is refused to an account without the role, with how the role is granted", async () => {
    user = await newContext();
    await signInNewUser(user, server.baseUrl, userPhone);
    const page = await user.newPage();
    await page.goto(`${server.baseUrl}/admin`);
    const refused = page.getByTestId("admin-no-access");
    await refused.waitFor({ timeout: 20_000 });
    expect(await refused.innerText()).toContain("npm run admin -- grant <phone>");
    await snap(page, "admin-no-access-desktop-zh");
  });

  it("an operator made with the command line changes a plan's price and creates gift codes", async () => {
    const context = await newContext();
    await signInNewUser(context, server.baseUrl, adminPhone);
    const printed = await server.admin(["grant", adminPhone]);
    expect(printed).toContain("is now an operator");

    admin = await context.newPage();
    await admin.goto(`${server.baseUrl}/admin`);
    await admin.getByTestId("admin-console").waitFor({ timeout: 20_000 });
    await admin.getByTestId("chart-signups").waitFor({ timeout: 15_000 });
    await admin.getByTestId("queue-depths").waitFor({ timeout: 15_000 });
    expect(await admin.getByTestId("chart-signups-summary").innerText()).toMatch(/合计 \d+/);
    await snap(admin, "admin-overview-desktop-zh");

    // Catalogue: the yearly plan's price, typed in yuan, saved as fen
    await admin.getByTestId("admin-nav-catalogue").click();
    const row = admin.getByTestId(`goods-${PLAN}`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getByTestId("goods-price-cell").innerText()).toBe("¥336.00");
    await row.getByTestId(`edit-goods-${PLAN}`).click();
    const dialog = admin.getByRole("dialog", { name: `编辑商品 ${PLAN}` });
    const price = dialog.getByTestId("goods-price");
    expect(await price.inputValue()).toBe("336.00");
    await price.fill("299.9");
    await snap(admin, "admin-catalogue-edit-desktop-zh");
    const [patch] = await Promise.all([
      admin.waitForRequest((r) => r.method() === "PATCH" && r.url().includes(`/admin/goods/pay/${PLAN}`)),
      dialog.getByTestId("goods-save").click(),
    ]);
    // only what changed travels, and money as integer fen
    expect(patch.postDataJSON()).toEqual({ priceFen: 29_990 });
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => row.getByTestId("goods-price-cell").innerText()).toBe("¥299.90");
    await snap(admin, "admin-catalogue-desktop-zh");

    // Gift codes: a batch of three 50-bean codes
    await admin.getByTestId("admin-nav-gifts").click();
    const form = admin.getByTestId("gift-batch-form");
    await form.waitFor();
    await form.getByTestId("gift-batch-name").fill(batch);
    await form.getByTestId("gift-kind").selectOption("beans");
    await form.getByTestId("gift-reward").fill("50");
    await form.getByTestId("gift-count").fill("3");
    await form.getByTestId("gift-generate").click();
    const created = admin.getByTestId("gift-created");
    await created.waitFor({ timeout: 15_000 });
    codes = await created.getByTestId("gift-code-value").allInnerTexts();
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(await created.getByTestId("gift-export").getAttribute("href")).toContain(`batch=${batch}`);
    const batchRow = admin.getByTestId(`batch-${batch}`);
    await batchRow.waitFor();
    expect(await batchRow.getByTestId("batch-uses").innerText()).toBe("0 / 3");
    await snap(admin, "admin-gifts-desktop-zh");
  });

  it("an ordinary user sees the new price and redeems a code; the operator sees it used", async () => {
    const page = await user.newPage();
    await page.goto(`${server.baseUrl}/vip`);
    const plan = page.getByTestId(`vip-plan-${PLAN}`);
    await plan.waitFor({ timeout: 20_000 });
    expect(await plan.getByTestId("goods-price").innerText()).toMatch(/^¥\s*299\.9/);
    await snap(page, "admin-vip-new-price-desktop-zh");

    await page.getByTestId("rewards").click();
    const rewards = page.getByRole("dialog", { name: "福利中心" });
    await rewards.getByRole("tab", { name: "礼包兑换" }).click();
    await rewards.getByTestId("gift-code").fill(codes[0] ?? "");
    await rewards.getByTestId("gift-redeem").click();
    const popup = page.getByTestId("reward-popup");
    await popup.waitFor({ timeout: 15_000 });
    expect(await popup.getByTestId("reward-amount").innerText()).toBe("50 悦豆");

    // the operator's page: the batch's uses and the code's own count
    await admin.reload();
    const batchRow = admin.getByTestId(`batch-${batch}`);
    await batchRow.waitFor({ timeout: 15_000 });
    expect(await batchRow.getByTestId("batch-uses").innerText()).toBe("1 / 3");
    await batchRow.getByRole("button", { name: "查看码" }).click();
    // the list shows the code masked (the whole codes come with the creation and the audited export)
    const codeRow = admin.getByTestId("codes-table").locator("tr", { hasText: maskGiftCode(codes[0] ?? "") });
    await codeRow.waitFor({ timeout: 15_000 });
    expect(await codeRow.getByTestId("code-uses").innerText()).toBe("1 / 1");
    await snap(admin, "admin-gifts-used-desktop-zh");

    // the user in the users table, and their page with the beans they got
    await admin.getByTestId("admin-nav-users").click();
    const filters = admin.getByTestId("users-filters");
    await filters.getByLabel("手机号或用户 ID").fill(userPhone);
    await filters.getByRole("button", { name: "筛选" }).click();
    const link = admin.locator('[data-testid^="user-link-"]');
    await expect.poll(() => link.count(), { timeout: 15_000 }).toBe(1);
    await snap(admin, "admin-users-desktop-zh");
    await link.click();
    await admin.getByTestId("user-summary").waitFor({ timeout: 15_000 });
    await admin.getByTestId("ledger-table").waitFor({ timeout: 15_000 });
    expect(await admin.getByTestId("ledger-table").innerText()).toContain("+50");
    await snap(admin, "admin-user-desktop-zh");

    // the audit log has the price change, with its before and after
    await admin.getByTestId("admin-nav-audit").click();
    const audit = admin.getByTestId("audit-table");
    await audit.waitFor({ timeout: 15_000 });
    const change = audit.locator("tr", { hasText: `goods:${PLAN}` });
    await change.getByRole("button", { name: "查看变更" }).click();
    const diff = admin.getByTestId("audit-diff");
    await diff.waitFor();
    expect(await diff.innerText()).toMatch(/33600[\s\S]*29990/);
    await snap(admin, "admin-audit-desktop-zh");
    await admin.keyboard.press("Escape");

    // the other areas render their tables (or their empty states) without an error
    for (const area of ["messages", "content", "orders", "system"]) {
      await admin.getByTestId(`admin-nav-${area}`).click();
      await admin.getByTestId(`admin-${area}`).waitFor({ timeout: 15_000 });
      await admin.waitForLoadState("networkidle");
      expect(await admin.getByRole("alert").count(), area).toBe(0);
      await snap(admin, `admin-${area}-desktop-zh`);
    }
  });

  it("fits a 375-pixel phone: the areas behind ☰, no page wider than the screen", async () => {
    const context = await newContext(PHONE);
    await context.addCookies(await admin.context().cookies());
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByTestId("admin-console").waitFor({ timeout: 20_000 });
    await page.getByTestId("chart-revenue").waitFor({ timeout: 15_000 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await snap(page, "admin-overview-phone-zh");

    await page.getByRole("button", { name: "打开导航菜单" }).click();
    const drawer = page.getByTestId("admin-drawer");
    await drawer.waitFor();
    await snap(page, "admin-drawer-phone-zh");
    await drawer.getByTestId("admin-nav-users").click();
    await drawer.waitFor({ state: "detached" });
    await page.getByTestId("users-table").waitFor({ timeout: 15_000 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await snap(page, "admin-users-phone-zh");

    for (const area of ["catalogue", "gifts", "messages", "content", "orders", "system", "audit"]) {
      await page.goto(`${server.baseUrl}/admin/${area}`);
      await page.getByTestId(`admin-${area}`).waitFor({ timeout: 15_000 });
      await page.waitForLoadState("networkidle");
      expect(await overflow(page), area).toBeLessThanOrEqual(0);
    }
    await snap(page, "admin-audit-phone-zh");
  });

  it("speaks English: overview, users, who redeemed a code and the help editor, on a desktop and a phone", async () => {
    const cookies = await admin.context().cookies();
    const context = await contextIn(browser, DESKTOP, "en");
    contexts.push(context);
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByTestId("admin-console").waitFor({ timeout: 20_000 });
    await page.getByTestId("chart-signups").waitFor({ timeout: 15_000 });
    await page.getByTestId("queue-depths").waitFor({ timeout: 15_000 });
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Overview");
    expect(await page.getByTestId("chart-signups-summary").innerText()).toMatch(/Total \d+/);
    expect(await page.getByTestId("queue-depths").innerText()).toContain("Waiting");
    const nav = page.getByRole("navigation", { name: "Console navigation" });
    expect(await nav.innerText()).toMatch(/Overview[\s\S]*Catalogue[\s\S]*Gift codes[\s\S]*Audit log/);
    expect(await nav.innerText()).not.toMatch(CJK);
    expect(await page.getByRole("link", { name: "Back to the app" }).count()).toBe(1);
    // the server's default nickname ('用户1234') as the app's header words it in English
    expect(await page.locator(".admin-operator").innerText()).toMatch(/^User \d{4}$/);
    await snapEn(page, "overview-desktop");

    // users: the search, the columns, the pager, in English
    await page.getByTestId("admin-nav-users").click();
    const filters = page.getByTestId("users-filters");
    await filters.getByLabel("Phone or user ID").fill(userPhone);
    await filters.getByRole("button", { name: "Filter" }).click();
    const link = page.locator('[data-testid^="user-link-"]');
    await expect.poll(() => link.count(), { timeout: 15_000 }).toBe(1);
    const table = page.getByTestId("users-table");
    expect(await table.locator("thead").innerText()).not.toMatch(CJK);
    expect(await page.getByTestId("pager-total").innerText()).toBe("1 row");
    await snapEn(page, "users-desktop");

    // gift codes: who redeemed the code the user redeemed
    await page.goto(`${server.baseUrl}/admin/gifts?codes.batch=${batch}`);
    // the list shows codes masked (issue 40): the row is found by the masked code
    const masked = maskGiftCode(codes[0] ?? "");
    const codeRow = page.getByTestId("codes-table").locator("tr", { hasText: masked });
    await codeRow.waitFor({ timeout: 15_000 });
    await codeRow.getByRole("button", { name: "Who redeemed" }).click();
    const redemptions = page.getByRole("dialog", { name: `Who redeemed ${masked}` });
    await redemptions.getByTestId("redemptions-table").waitFor({ timeout: 15_000 });
    expect(await redemptions.getByTestId("redemptions-table").innerText()).toContain(userPhone);
    expect(await redemptions.getByTestId("pager-total").innerText()).toBe("1 row");
    await snapEn(page, "gifts-redemptions-desktop");
    await page.keyboard.press("Escape");

    // the help editor: the seeded document's Markdown list in the preview, as the help centre shows it
    await page.getByTestId("admin-nav-content").click();
    const helpRow = page.getByTestId("help-table").locator("tr", { hasText: "getting-started" });
    await helpRow.getByRole("button", { name: "Edit" }).click();
    const editor = page.getByRole("dialog", { name: /^Edit document/ });
    await editor.getByRole("tab", { name: "Text (English)" }).click();
    const preview = editor.getByTestId("help-preview");
    expect(await preview.locator("ol > li").count()).toBe(4);
    expect(await preview.locator("ol > li").first().innerText()).toContain("Sign in and open");
    await snapEn(page, "help-editor-desktop");
    await editor.getByRole("button", { name: "Cancel" }).click();

    // the help centre renders the same Markdown with the same renderer (and shows no dialog of the app's over it)
    await page.goto(`${server.baseUrl}/helpDocument?doc=getting-started`);
    const helpText = page.getByTestId("help-text");
    await helpText.waitFor({ timeout: 15_000 });
    expect(await helpText.locator("ol > li").count()).toBe(4);
    expect(await helpText.locator("ol > li").nth(3).innerText()).toContain("My records");
    expect(await helpText.locator("script, [onerror]").count()).toBe(0);
    await snapEn(page, "help-page-desktop");

    // a 375-pixel phone: the same pages, nothing wider than the screen
    const phone = await contextIn(browser, PHONE, "en");
    contexts.push(phone);
    await phone.addCookies(cookies);
    const small = await phone.newPage();
    await small.goto(`${server.baseUrl}/admin`);
    await small.getByTestId("admin-console").waitFor({ timeout: 20_000 });
    await small.getByTestId("chart-revenue").waitFor({ timeout: 15_000 });
    expect(await small.getByRole("button", { name: "Open the navigation menu" }).count()).toBe(1);
    expect(await small.getByTestId("chart-signups-summary").innerText()).toMatch(/Total \d+/);
    expect(await overflow(small)).toBeLessThanOrEqual(0);
    await snapEn(small, "overview-phone");
    await small.goto(`${server.baseUrl}/admin/users`);
    await small.getByTestId("users-table").waitFor({ timeout: 15_000 });
    expect(await small.getByTestId("users-filters").innerText()).toContain("Phone or user ID");
    expect(await overflow(small)).toBeLessThanOrEqual(0);
    await snapEn(small, "users-phone");
    await small.goto(`${server.baseUrl}/admin/gifts?codes.batch=${batch}`);
    await small
      .getByTestId("codes-table")
      .locator("tr", { hasText: maskGiftCode(codes[0] ?? "") })
      .getByRole("button", { name: "Who redeemed" })
      .click();
    await small.getByTestId("redemptions-table").waitFor({ timeout: 15_000 });
    expect(await overflow(small)).toBeLessThanOrEqual(0);
    await snapEn(small, "gifts-redemptions-phone");
  });
});
