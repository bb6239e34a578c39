import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeWebhookReceiver } from "../helpers/fake-webhook-receiver.ts";
import { contextIn, launchBrowser, SCREENSHOTS } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * Issue 22 as an integrator meets it, in real Chromium at phone width: a key made in the web app
 * works as a Bearer token until it is revoked there; a webhook added there receives a test event
 * that verifies with the standardwebhooks library, sent by the launcher's own worker process.
 */

let server: RunningServer;
let browser: Browser;
let receiver: FakeWebhookReceiver;
const PHONE_375 = { width: 375, height: 812 };

beforeAll(async () => {
  // the receiver listens on 127.0.0.1: an address only an operator's WEBHOOK_ALLOW_PRIVATE lets through
  server = await startServer({ WORKER_MODE: "embedded", WEBHOOK_ALLOW_PRIVATE: "true" });
  browser = await launchBrowser();
  receiver = await FakeWebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.close();
  await browser?.close();
  await server?.stop();
});

describe("API & webhooks in the personal centre", () => {
  it("a key made here acts as the user until it is revoked here", async () => {
    const context = await contextIn(browser, PHONE_375, "zh");
    const userId = await signInNewUser(context, server.baseUrl, "13900022001");
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/personalInfo?menu=developer`);
    await page.getByTestId("create-key").click();
    await page.getByRole("dialog").getByRole("textbox").fill("夜间导出");
    await page.getByRole("dialog").getByRole("button", { name: "确定" }).click();
    const key = (await page.getByTestId("secret-value").textContent()) ?? "";
    expect(key).toMatch(/^yl_/);
    await page.getByTestId("secret-done").click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/integrations-375.png`, fullPage: true });

    const asScript = () =>
      fetch(`${server.baseUrl}/voice_yuelu/api/v1/user/info`, { headers: { authorization: `Bearer ${key}` } }).then(
        (r) => r.json() as Promise<{ status_code: number; data: { userId: number } }>,
      );
    expect((await asScript()).data.userId).toBe(userId);

    await page.locator("[data-testid^=revoke-]").first().click();
    await page.getByTestId("confirm").click();
    await page.getByText("还没有 API 密钥").waitFor();
    expect((await asScript()).status_code).toBe(10001);
    await context.close();
  });

  it("a webhook added here receives a signed test event", async () => {
    const context = await contextIn(browser, PHONE_375, "en");
    await signInNewUser(context, server.baseUrl, "13900022002");
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/personalInfo?menu=developer`);
    await page.getByTestId("create-hook").click();
    await page.getByTestId("hook-url").fill(receiver.url("/e2e"));
    await page.getByTestId("hook-submit").click();
    const secret = (await page.getByTestId("secret-value").textContent()) ?? "";
    await page.getByTestId("secret-done").click();
    await page.locator("[data-testid^=deliveries-]").first().click();
    await page.getByTestId("send-test").click();
    for (let i = 0; i < 150 && receiver.to("/e2e").length === 0; i++) await page.waitForTimeout(100);
    expect(receiver.verify(receiver.to("/e2e")[0]!, secret)).toMatchObject({ type: "webhook.test" });
    // the open list refreshes itself while a delivery waits
    await page.getByTestId("delivery-status").getByText("Delivered").waitFor({ timeout: 10_000 });
    await context.close();
  });
});
