import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextIn, DESKTOP, launchBrowser, PHONE, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * The cashier end to end in real Chromium against the real server and its mock Alipay gateway
 * (docs/commerce.md): a user opens the cashier from the header, the QR's payUrl is opened on a
 * phone-sized page and paid there, and the dialog and the header turn member; an order left past
 * its 30 s (PAY_ORDER_TTL_SECONDS) offers 'click to refresh' and the same order becomes payable
 * again; a visitor sees 'log in to view' and gets the QR once signed in; the English dialog at
 * phone width. Screenshots land in tests/e2e/screenshots/ (git-ignored).
 */
const TTL_SECONDS = 30;
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/u;

let server: RunningServer;
let browser: Browser;
/** new accounts start without the 30-day welcome membership, so buying one shows the badge appear */
let welcomeMembershipOff = false;
const contexts: BrowserContext[] = [];
const stamp = String(Date.now()).slice(-7);

beforeAll(async () => {
  // Its own queues in its own database, as records.e2e explains: no shared Redis.
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer({ PAY_ORDER_TTL_SECONDS: String(TTL_SECONDS) });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  welcomeMembershipOff = await server.sql(
    `UPDATE app_settings SET value = value || '{"blackCardEnabled": false}'::jsonb WHERE key = 'welcome_gifts'`,
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newContext(viewport = DESKTOP, lang: "zh" | "en" = "zh"): Promise<BrowserContext> {
  const context = await contextIn(browser, viewport, lang);
  contexts.push(context);
  return context;
}

const signIn = (context: BrowserContext, phone: string) => signInNewUser(context, server.baseUrl, phone);

const qr = (page: Page) => page.getByTestId("pay-qr");

/** Waits for a payable QR and answers what it encodes. */
async function payableQr(page: Page) {
  await expect.poll(() => qr(page).getAttribute("data-phase"), { timeout: 15_000 }).toBe("open");
  // (CSS, not the role: a dialog opened over the cashier, onboarding's, hides it from the a11y tree)
  await qr(page).locator("img").waitFor();
  return {
    payUrl: (await qr(page).getAttribute("data-pay-url")) ?? "",
    orderNumber: (await qr(page).getAttribute("data-order-number")) ?? "",
    expireTime: Number(await qr(page).getAttribute("data-expire-time")),
  };
}

/** The payer's phone: opens the payUrl (the scan) and presses Pay on the mock gateway's page. */
async function payOnPhone(payUrl: string, name: string) {
  const phone = await (await newContext(PHONE)).newPage();
  await phone.goto(payUrl);
  await phone.locator("#pay").waitFor();
  await snap(phone, `${name}-scanned`);
  await phone.locator("#pay").click();
  await expect.poll(() => phone.locator("#state").innerText(), { timeout: 15_000 }).toContain("支付成功");
  await snap(phone, `${name}-paid`);
  return phone;
}

/** A screenshot once the dialogs' entry animations are over (spinners spin on: they never end). */
async function snap(page: Page, name: string) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  await shot(page, name);
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe("the cashier", () => {
  it("a member's badge appears after paying for a plan on the phone the QR points to", async () => {
    const context = await newContext();
    await signIn(context, `1370${stamp}`);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/transaudio`);
    const badge = page.getByTestId("member-badge");
    await badge.waitFor({ timeout: 15_000 });
    if (welcomeMembershipOff) expect(await badge.getAttribute("data-member")).toBe("0");

    // The header's 'become a member' opens the cashier on the membership tab, the first plan chosen.
    await badge.click();
    const dialog = page.getByRole("dialog", { name: "收银台" });
    await dialog.getByRole("tab", { name: "购买会员", selected: true }).waitFor();
    expect(await dialog.getByRole("radio").count()).toBe(3);
    expect(await dialog.getByTestId("goods-9").getByTestId("goods-corner").innerText()).toBe("立省¥78");
    expect(await dialog.getByTestId("goods-8").getByTestId("goods-price").innerText()).toBe("¥84");
    await dialog.getByTestId("goods-9").click();
    const first = await payableQr(page);
    expect(first.payUrl).toBe(`${server.baseUrl}/mock-alipay/pay/${first.orderNumber}`);
    expect(await page.getByTestId("pay-amount").innerText()).toBe("¥336");
    await snap(page, "cashier-desktop-zh");

    // Opening the payUrl is the scan: the next poll says so.
    const phone = await (await newContext(PHONE)).newPage();
    await phone.goto(first.payUrl);
    await phone.locator("#pay").waitFor();
    expect(await phone.locator("#subject").innerText()).toContain("年度会员");
    await expect
      .poll(() => page.getByTestId("pay-status").innerText(), { timeout: 15_000 })
      .toBe("扫码成功，请尽快支付");
    await snap(phone, "mock-alipay-phone-zh");
    await snap(page, "cashier-scanned-desktop-zh");

    await phone.locator("#pay").click();
    await expect.poll(() => phone.locator("#state").innerText(), { timeout: 15_000 }).toContain("支付成功");
    await snap(phone, "mock-alipay-paid-phone-zh");
    await page.getByTestId("pay-success").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("pay-success").innerText()).toContain("已为你开通 365 天会员");
    await expect.poll(() => badge.getAttribute("data-member"), { timeout: 10_000 }).toBe("1");
    expect(await badge.innerText()).toContain("会员");
    await snap(page, "cashier-paid-desktop-zh");

    await page.getByTestId("pay-done").click();
    await page.goto(`${server.baseUrl}/vip`);
    await expect.poll(() => page.getByTestId("vip-status").getAttribute("data-member"), { timeout: 10_000 }).toBe("1");
    await snap(page, "vip-member-desktop-zh");
    await page.goto(`${server.baseUrl}/personalInfo?menu=orders`);
    const row = page.getByTestId(`order-${first.orderNumber}`);
    await expect.poll(() => row.getByTestId("order-status").innerText(), { timeout: 10_000 }).toBe("已支付");
    await snap(page, "orders-desktop-zh");
  });

  it(`an order left past its ${TTL_SECONDS} s: 'click to refresh' makes the same order payable again`, async () => {
    const context = await newContext();
    await signIn(context, `1371${stamp}`);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/personalInfo?menu=timeCards`);
    await page.getByTestId("buy-time-cards").click({ timeout: 15_000 });
    const dialog = page.getByRole("dialog", { name: "收银台" });
    await dialog.getByRole("tab", { name: "购买时长卡", selected: true }).waitFor();
    await dialog.getByTestId("purchase-notes").waitFor();
    const first = await payableQr(page);
    await snap(page, "cashier-card-desktop-zh");

    // The server closes the order when it is polled after its expiry.
    const refresh = page.getByRole("button", { name: "订单已超时，点击刷新" });
    await refresh.waitFor({ timeout: (TTL_SECONDS + 25) * 1000 });
    expect(await qr(page).getAttribute("data-phase")).toBe("closed");
    await snap(page, "cashier-timeout-desktop-zh");

    await refresh.click();
    const again = await payableQr(page);
    expect(again.orderNumber).toBe(first.orderNumber);
    expect(again.expireTime).toBeGreaterThan(first.expireTime);
    expect(await page.getByTestId("qr-mask").count()).toBe(0);

    await payOnPhone(again.payUrl, "mock-alipay-refreshed-phone-zh");
    await page.getByTestId("pay-success").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("pay-success").innerText()).toContain("1 小时转写时长已到账");
  });

  it("a visitor sees 'log in to view' over the QR; signing in from it brings the QR", async () => {
    const context = await newContext(PHONE);
    const page = await context.newPage();
    await page.goto(server.baseUrl);
    await page.getByTestId("cta-vip").click();
    const dialog = page.getByRole("dialog", { name: "收银台" });
    await dialog.getByRole("radio").first().waitFor();
    const mask = dialog.getByRole("button", { name: "登录后查看" });
    await mask.waitFor();
    expect(await qr(page).getAttribute("data-phase")).toBe("idle");
    expect(await qr(page).getByRole("img").count()).toBe(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await snap(page, "cashier-anonymous-phone-zh");

    await mask.click();
    const frame = page.frameLocator('[data-testid="login-frame"]');
    await frame.locator("#phone").fill(`1372${stamp}`);
    await frame.locator("#send").click();
    await expect.poll(() => frame.locator("#code").inputValue(), { timeout: 10_000 }).toMatch(/^\d{6}$/);
    await frame.locator("#submit").click();
    await page.getByTestId("login-frame").waitFor({ state: "detached", timeout: 15_000 });
    const order = await payableQr(page);
    expect(order.payUrl).toContain("/mock-alipay/pay/");
    await snap(page, "cashier-after-login-phone-zh");
  });

  it("reads English at phone width, without Chinese and without overflow", async () => {
    const context = await newContext(PHONE, "en");
    await signIn(context, `1373${stamp}`);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/vip`);
    await page.getByTestId("vip-buy-9").click({ timeout: 15_000 });
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await payableQr(page);
    expect(await dialog.getByTestId("goods-9").getByTestId("goods-corner").innerText()).toBe("¥78 saved");
    expect(await dialog.getByRole("link", { name: /Compare benefits/ }).count()).toBe(1);
    const lines = (await dialog.innerText()).split("\n").filter((line) => CJK.test(line));
    expect(lines).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await snap(page, "cashier-phone-en");

    await dialog.getByRole("tab", { name: "Time cards" }).click();
    await dialog.getByTestId("purchase-notes").waitFor();
    await payableQr(page);
    expect((await dialog.innerText()).split("\n").filter((line) => CJK.test(line))).toEqual([]);
    await snap(page, "cashier-card-phone-en");

    await page.keyboard.press("Escape");
    await page.getByTestId("benefit-table").waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await snap(page, "vip-phone-en");
  });
});
