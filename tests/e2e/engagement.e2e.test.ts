import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextIn, DESKTOP, launchBrowser, PHONE, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { callApi, signInNewUser } from "./helpers/session.ts";

/**
 * Beans and engagement end to end (issue 10), in real Chromium against the real server: a task
 * claimed in the reward dialog, gift codes redeemed (beans, then membership days), beans exchanged
 * for a time card in the shop and the ledger that shows it, messages read one by one and all at
 * once, feedback sent with a screenshot; then the reward, shop, message, help and personal-centre
 * screens at phone and desktop widths in Chinese and English. Gift codes and a message are made
 * with SQL on the server's own database (skipped on embedded PGlite, which no other process can
 * open). Screenshots land in tests/e2e/screenshots/ (git-ignored).
 */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/u;
/** A 1×1 PNG: the server checks screenshots by their content. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

let server: RunningServer;
let browser: Browser;
let canSql = false;
const stamp = String(Date.now()).slice(-7);

beforeAll(async () => {
  // Its own queues in its own database, as records.e2e explains: no shared Redis.
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer();
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  canSql = await server.sql("SELECT 1");
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newContext(viewport = DESKTOP, lang: "zh" | "en" = "zh"): Promise<BrowserContext> {
  return contextIn(browser, viewport, lang);
}

/** POSTs a JSON body through the context (its cookies), expecting the success envelope. */
async function _call(context: BrowserContext, pathname: string, data: unknown = {}) {
  await callApi(context, server.baseUrl, pathname, data);
}

/**
 * Signs a new account in with the local-host dev login, the survey answered, the welcome gifts
 * announced and today's check-in done (which makes the daily check-in task claimable). Answers
 * the user's id.
 */
function signIn(context: BrowserContext, phone: string): Promise<number> {
  return signInNewUser(context, server.baseUrl, phone);
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
const chineseLines = (text: string) => text.split("\n").filter((line) => CJK.test(line));

/** The open dialog's box lies inside the viewport. */
async function fitsViewport(page: Page, name: string, width: number) {
  const box = await page.getByRole("dialog", { name }).boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= width, `${name} fits ${width}px`).toBe(true);
}

describe("beans and engagement (desktop, zh)", () => {
  let context: BrowserContext;
  let page: Page;
  let userId = 0;
  /** the bean balance as the header shows it */
  const beans = async () => Number((await page.getByTestId("beans").innerText()).replace(/\D/g, ""));
  let balance = 0;

  beforeAll(async () => {
    context = await newContext();
    userId = await signIn(context, `1390${stamp}`);
    page = await context.newPage();
    await page.goto(`${server.baseUrl}/transaudio`);
    await page.getByTestId("user-menu").waitFor({ timeout: 15_000 });
  });

  it("claims the check-in task in the reward dialog", async () => {
    // the header's rewards button opens the dialog on the check-in tab
    await page.getByTestId("rewards").click();
    const dialog = page.getByRole("dialog", { name: "福利中心" });
    await dialog.getByRole("tab", { name: "每日签到", selected: true }).waitFor({ timeout: 15_000 });
    await dialog.getByTestId("checkin-day").first().waitFor();
    await snap(page, "reward-checkin-desktop-zh");

    await dialog.getByRole("tab", { name: "任务挑战" }).click();
    const checkinTask = dialog.getByTestId("task-1");
    await expect.poll(() => checkinTask.getAttribute("data-state"), { timeout: 10_000 }).toBe("claimable");
    // daily tasks first, challenges second
    const groups = await dialog.locator(".task-group h3").allInnerTexts();
    expect(groups).toEqual(["每日任务", "挑战任务"]);
    expect(await dialog.getByTestId("task-2").getAttribute("data-state")).toBe("unfinished");
    expect(await dialog.getByTestId("task-2").getByTestId("task-claim").isDisabled()).toBe(true);
    await snap(page, "reward-tasks-claimable-desktop-zh");

    const before = await beans();
    await checkinTask.getByTestId("task-claim").click();
    const popup = page.getByTestId("reward-popup");
    await popup.waitFor();
    expect(await popup.getByTestId("reward-amount").innerText()).toBe("10 悦豆");
    await snap(page, "reward-claimed-desktop-zh");
    await page.getByTestId("reward-accept").click();
    await expect.poll(() => checkinTask.getAttribute("data-state")).toBe("claimed");
    // the task's 10 on top of the check-in's (10, or 20 for a member: new accounts get 30 days)
    await expect.poll(beans, { timeout: 10_000 }).toBe(before + 10);
    balance = before + 10;
  });

  it("redeems gift codes: refused client-side when empty or short; beans, then membership days", async (ctx) => {
    if (!canSql) return ctx.skip();
    const beanCode = `B${stamp}`;
    const days = `M${stamp}`;
    await server.sql(
      `INSERT INTO gift_codes ("packCode", "rewardType", "rewardNumber", "maxRedemptions")
       VALUES ('${beanCode}', 0, 600, 5), ('${days}', 107, 7, 5)`,
    );
    const dialog = page.getByRole("dialog", { name: "福利中心" });
    await dialog.getByRole("tab", { name: "礼包兑换" }).click();
    const input = dialog.getByTestId("gift-code");
    await dialog.getByTestId("gift-redeem").click();
    expect(await dialog.getByTestId("gift-error").innerText()).toBe("请填写兑换码");
    await input.fill("abc");
    await dialog.getByTestId("gift-redeem").click();
    expect(await dialog.getByTestId("gift-error").innerText()).toBe("请填写正确的兑换码");
    await input.fill(`${beanCode.toLowerCase()}XYZ`);
    expect(await input.inputValue()).toBe(beanCode);
    await snap(page, "reward-gift-typed-desktop-zh");

    await dialog.getByTestId("gift-redeem").click();
    const popup = page.getByTestId("reward-popup");
    await popup.waitFor();
    expect(await popup.getByTestId("reward-amount").innerText()).toBe("600 悦豆");
    await snap(page, "reward-gift-beans-desktop-zh");
    await page.getByTestId("reward-accept").click();

    // the same code again: the server's reason, in place
    await input.fill(beanCode);
    await dialog.getByTestId("gift-redeem").click();
    await expect.poll(() => dialog.getByTestId("gift-error").innerText()).toBe("您已兑换过该兑换码");

    await input.fill(days);
    await dialog.getByTestId("gift-redeem").click();
    const member = page.getByTestId("member-popup");
    await member.waitFor();
    expect(await member.innerText()).toContain("已为你开通 7 天会员");
    await snap(page, "reward-gift-member-desktop-zh");
    await page.getByTestId("reward-accept").click();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByTestId("member-badge").getAttribute("data-member")).toBe("1");
    await expect.poll(beans, { timeout: 10_000 }).toBe(balance + 600);
    balance += 600;
  });

  it("exchanges beans for a time card in the shop; 'view details' shows the ledger", async (ctx) => {
    if (!canSql) return ctx.skip();
    await page.getByTestId("beans").click();
    const shop = page.getByRole("dialog", { name: "悦豆商城" });
    await shop.getByTestId("redeem-goods-101").waitFor({ timeout: 15_000 });
    await expect.poll(() => shop.getByTestId("shop-balance").innerText()).toBe(String(balance));
    // 620 or 630: two 30-minute cards (300 each) at most
    expect(Math.floor(balance / 300)).toBe(2);
    expect(await shop.getByTestId("cash-goods").getByRole("listitem").count()).toBeGreaterThan(0);
    // the 5-hour card costs 2200 a unit: more than the balance
    const dear = shop.getByTestId("redeem-goods-104").getByTestId("redeem");
    expect(await dear.innerText()).toBe("悦豆不足");
    expect(await dear.isDisabled()).toBe(true);
    await snap(page, "shop-balance-620-desktop-zh");
    await shop.getByTestId("balance-help").click();
    await page.getByTestId("balance-popover").waitFor();
    await snap(page, "shop-balance-help-desktop-zh");
    await page.keyboard.press("Escape");
    await shop.getByTestId("shop-notes").click();
    expect(await page.getByTestId("notes-popover").innerText()).toContain("有效期 3 个月");
    await page.keyboard.press("Escape");

    await shop.getByTestId("redeem-goods-101").getByTestId("redeem").click();
    const confirm = page.getByRole("dialog", { name: "确认兑换" });
    await confirm.waitFor();
    const quantity = confirm.getByTestId("quantity-input");
    // The dialog knows the balance before the stepper is used (polled reads: on a loaded machine a
    // click's re-render can land after the next read).
    await expect.poll(() => confirm.getByTestId("redeem-balance-after").innerText()).toBe(`${balance - 300} 悦豆`);
    await confirm.getByTestId("quantity-increase").click();
    await expect.poll(() => quantity.inputValue()).toBe("2");
    await expect.poll(() => confirm.getByTestId("quantity-increase").isDisabled()).toBe(true); // floor(balance / 300)
    await quantity.fill("abc");
    await quantity.blur();
    await expect.poll(() => quantity.inputValue()).toBe("1");
    await quantity.fill("2");
    await expect.poll(() => confirm.getByTestId("redeem-total").innerText()).toBe("600 悦豆");
    expect(await confirm.getByTestId("redeem-balance-after").innerText()).toBe(`${balance - 600} 悦豆`);
    await snap(page, "shop-redeem-desktop-zh");
    await confirm.getByTestId("redeem-confirm").click();
    const popup = page.getByTestId("reward-popup");
    await popup.waitFor();
    expect(await popup.getByTestId("reward-amount").innerText()).toBe("1 小时");
    await snap(page, "shop-redeemed-desktop-zh");
    await page.getByTestId("reward-accept").click();
    await expect.poll(() => shop.getByTestId("shop-balance").innerText()).toBe(String(balance - 600));
    expect(await shop.getByTestId("redeem-goods-101").getByTestId("redeem").innerText()).toBe("悦豆不足");

    await shop.getByTestId("shop-details").click();
    await shop.waitFor({ state: "detached" });
    // (the route's code may still be loading)
    await expect
      .poll(() => new URL(page.url()).pathname + new URL(page.url()).search)
      .toBe("/personalInfo?menu=coinDetail");
    const spent = page.locator('[data-testid^="bean-"] [data-testid="bean-amount"]').first();
    await expect.poll(() => spent.innerText(), { timeout: 10_000 }).toBe("-600");
    expect(await page.getByTestId("bean-balance").innerText()).toBe(String(balance - 600));
    await snap(page, "personal-coin-desktop-zh");

    // 'view details' where the details already are: nothing happens
    await page.getByTestId("beans").click();
    await shop.getByTestId("shop-details").click();
    await page.waitForTimeout(300);
    expect(await shop.isVisible()).toBe(true);
    await page.keyboard.press("Escape");

    // the card: 2 × 30 minutes, valid 3 months
    await page.getByTestId("menu-timeCards").click();
    await page.getByTestId("time-card-list").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("time-card-list").innerText()).toContain("1 小时");
  });

  it("reads messages one by one and all at once; the header's badge follows", async (ctx) => {
    if (!canSql) return ctx.skip();
    // two older notices, then the newest: at least three unread
    for (const title of ["升级预告", "活动通知"]) {
      await server.sql(
        `INSERT INTO notifications ("userId", "notifyTitle", "notifyText", "notifyTitleEn", "notifyTextEn", "senderName", "sendTime")
         VALUES (${userId}, '${title}', '内容', 'Notice', 'Text', '悦录', now() - interval '1 hour')`,
      );
    }
    await server.sql(
      `INSERT INTO notifications ("userId", "notifyTitle", "notifyText", "notifyTitleEn", "notifyTextEn", "senderName")
       VALUES (${userId}, '系统维护通知', '今晚 23:00 至 23:30 进行系统维护。<script>alert(1)</script>',
               'Maintenance tonight', 'From 23:00 to 23:30 tonight.', '悦录')`,
    );
    await page.reload();
    const bell = page.getByTestId("unread");
    const count = async () => Number(await bell.getAttribute("data-count"));
    await expect.poll(count, { timeout: 15_000 }).toBeGreaterThan(2);
    const before = await count();
    expect(await bell.getByTestId("unread-badge").innerText()).toBe(String(before));

    await bell.click();
    const dialog = page.getByRole("dialog", { name: "消息中心" });
    const list = dialog.getByTestId("message-list");
    await list.waitFor({ timeout: 15_000 });
    // the newest, first, is selected and shown — so it is read: its dot goes, the badge drops
    const detail = dialog.getByTestId("message-detail");
    expect(await detail.innerText()).toContain("系统维护通知");
    expect(await detail.innerText()).toContain("<script>alert(1)</script>");
    const first = list.locator("button").first();
    expect(await first.getAttribute("aria-current")).toBe("true");
    expect(await first.locator("time").innerText()).toMatch(/^\d\d:\d\d$/);
    await expect.poll(() => first.getAttribute("data-read")).toBe("1");
    await expect.poll(count).toBe(before - 1);
    await snap(page, "message-read-desktop-zh");

    const unreadItem = list.locator('button[data-read="0"]').first();
    const title = await unreadItem.locator(".msg-item-title").innerText();
    await unreadItem.click();
    expect(await detail.innerText()).toContain(title);
    await expect.poll(count).toBe(before - 2);

    // only the unread ones (the first of them is shown, and so read, too)
    await dialog.getByTestId("only-unread").check();
    await expect.poll(() => list.locator("button").count()).toBe(before - 2);
    await expect.poll(count).toBe(before - 3);

    await dialog.getByTestId("read-all").click();
    await expect.poll(() => list.locator('button[data-read="0"]').count()).toBe(0);
    await expect.poll(count).toBe(0);
    expect(await bell.getByTestId("unread-badge").count()).toBe(0);
    await page.keyboard.press("Escape");
    await page.reload();
    await page.getByTestId("user-menu").waitFor();
    await page.waitForTimeout(500);
    expect(await count()).toBe(0);
  });

  it("sends feedback with a screenshot from the help centre", async () => {
    await page.goto(`${server.baseUrl}/helpDocument`);
    await page.getByTestId("help-text").waitFor({ timeout: 15_000 });
    await page.getByTestId("feedback-open").click();
    const dialog = page.getByRole("dialog", { name: "意见反馈" });
    await dialog.getByTestId("feedback-categories").waitFor();
    await dialog.getByRole("button", { name: "问题反馈" }).click();
    await dialog.getByTestId("feedback-subcategories").getByRole("button", { name: "上传失败" }).click();
    const text = `上传大文件时失败了 ${stamp}`;
    await dialog.getByTestId("feedback-content").fill(text);
    await dialog.getByTestId("feedback-contact").fill("me@example.com");
    await dialog.getByTestId("feedback-images").setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
    await dialog.getByTestId("feedback-shot").waitFor();
    await snap(page, "feedback-desktop-zh");
    await dialog.getByTestId("feedback-submit").click();
    await dialog.getByTestId("feedback-sent").waitFor({ timeout: 15_000 });
    await snap(page, "feedback-sent-desktop-zh");
    if (canSql) {
      // the report is stored with its category and its screenshot (the statement fails otherwise)
      await server.sql(
        `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM feedback WHERE content = '${text}' AND "categoryId" = 22
           AND cardinality(images) = 1 AND contact = 'me@example.com') THEN RAISE EXCEPTION 'feedback not stored'; END IF; END $$`,
      );
    }
  });

  it("shows the personal centre: profile, membership, quotas; deletion asks first", async () => {
    await page.goto(`${server.baseUrl}/personalInfo`);
    await page.getByTestId("profile").waitFor({ timeout: 15_000 });
    await page.getByTestId("quota").waitFor();
    if (canSql) expect(await page.getByTestId("membership").getAttribute("data-member")).toBe("1");
    await page.getByTestId("nickname-edit").click();
    await page.getByTestId("nickname-input").fill("悦读者");
    await page.getByTestId("nickname-save").click();
    await expect.poll(() => page.getByTestId("user-name").innerText()).toBe("悦读者");
    await page.getByTestId("avatar-change").click();
    const avatars = page.getByRole("dialog", { name: "选择头像" });
    await avatars.getByTestId("avatar-option-2").click();
    await snap(page, "avatar-picker-desktop-zh");
    await avatars.getByTestId("avatar-save").click();
    await expect.poll(() => page.getByTestId("avatar-image").getAttribute("src")).toBe("/avatars/a2.svg");
    // the image is served by the app
    expect(await page.getByTestId("avatar-image").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
    await snap(page, "personal-profile-member-desktop-zh");

    await page.getByTestId("menu-account").click();
    await page.getByTestId("delete-account-start").click();
    await page.getByRole("dialog", { name: "确定要注销账号吗？" }).waitFor();
    await snap(page, "personal-delete-desktop-zh");
    await page.getByRole("button", { name: "取消" }).click();
  });
});

describe("the screens at phone and desktop widths, in Chinese and English", () => {
  for (const lang of ["zh", "en"] as const) {
    for (const [width, viewport] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      it(`${width}, ${lang}: rewards, shop, messages, help, personal centre`, async () => {
        const context = await newContext(viewport, lang);
        await signIn(context, `139${lang === "zh" ? 1 : 2}${width === "phone" ? 1 : 2}${stamp.slice(-6)}`);
        const page = await context.newPage();
        const name = (screen: string) => `${screen}-${width}-${lang}`;
        const t = (zh: string, en: string) => (lang === "zh" ? zh : en);
        const checkEnglish = async (text: string) => {
          if (lang === "en") expect(chineseLines(text)).toEqual([]);
        };
        await page.goto(`${server.baseUrl}/transaudio`);
        await page.getByTestId("user-menu").waitFor({ timeout: 15_000 });
        // the header keeps every entry, the messages' too, on one line without overflow
        for (const id of ["beans", "rewards", "unread", "time-card"])
          expect(await page.getByTestId(id).isVisible()).toBe(true);
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        // nothing in the header is cut off: every entry lies inside the viewport, and none overlaps the next
        const boxes = await page.$$eval(".header-right > *", (els) =>
          els.map((el) => {
            const r = el.getBoundingClientRect();
            return { left: Math.round(r.left), right: Math.round(r.right), visible: r.width > 0 };
          }),
        );
        const shown = boxes.filter((b) => b.visible);
        expect(shown.every((b) => b.left >= 0 && b.right <= viewport.width)).toBe(true);
        for (let i = 1; i < shown.length; i++) expect(shown[i]!.left).toBeGreaterThanOrEqual(shown[i - 1]!.right);
        await snap(page, name("header"));

        await page.getByTestId("rewards").click();
        const rewards = page.getByRole("dialog", { name: t("福利中心", "Rewards") });
        await rewards.getByTestId("checkin-day").first().waitFor({ timeout: 15_000 });
        await rewards.getByRole("tab", { name: t("任务挑战", "Task challenges") }).click();
        await rewards.getByTestId("task-1").waitFor();
        await fitsViewport(page, t("福利中心", "Rewards"), viewport.width);
        await checkEnglish(await rewards.innerText());
        await snap(page, name("reward-tasks"));
        await rewards.getByRole("tab", { name: t("礼包兑换", "Gift codes") }).click();
        await rewards.getByTestId("gift-code").waitFor();
        await checkEnglish(await rewards.innerText());
        await snap(page, name("reward-gift"));
        await page.keyboard.press("Escape");
        await rewards.waitFor({ state: "detached" });

        await page.getByTestId("beans").click();
        const shop = page.getByRole("dialog", { name: t("悦豆商城", "Bean shop") });
        await shop.getByTestId("redeem-goods-101").waitFor({ timeout: 15_000 });
        await shop.getByTestId("cash-goods").waitFor();
        await fitsViewport(page, t("悦豆商城", "Bean shop"), viewport.width);
        await checkEnglish(await shop.innerText());
        await snap(page, name("shop"));
        await page.keyboard.press("Escape");
        await shop.waitFor({ state: "detached" });

        await page.getByTestId("unread").click();
        const messages = page.getByRole("dialog", { name: t("消息中心", "Messages") });
        // (a new account's first messages: its welcome gifts and its task reward, when those send any)
        await messages
          .locator('[data-testid="message-detail"], [data-testid="empty-state"]')
          .first()
          .waitFor({ timeout: 15_000 });
        await fitsViewport(page, t("消息中心", "Messages"), viewport.width);
        await checkEnglish(await messages.innerText());
        await snap(page, name("message"));
        await page.keyboard.press("Escape");

        await page.goto(`${server.baseUrl}/helpDocument`);
        await page.getByTestId("help-text").waitFor({ timeout: 15_000 });
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await snap(page, name("help-doc"));
        await page.getByTestId("feedback-open").click();
        const feedback = page.getByRole("dialog", { name: t("意见反馈", "Feedback") });
        await feedback.getByTestId("feedback-categories").waitFor();
        await feedback.getByRole("button", { name: t("问题反馈", "Problem report") }).click();
        await feedback.getByTestId("feedback-subcategories").waitFor();
        await checkEnglish(await feedback.innerText());
        await snap(page, name("feedback"));
        await page.keyboard.press("Escape");

        await page.goto(`${server.baseUrl}/personalInfo`);
        await page.getByTestId("profile").waitFor({ timeout: 15_000 });
        await page.getByTestId("quota").waitFor();
        await page.getByTestId("membership").waitFor();
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await checkEnglish(await page.locator("main").innerText());
        await snap(page, name("personal-profile"));
        await page.goto(`${server.baseUrl}/personalInfo?menu=coinDetail`);
        await page.getByTestId("bean-list").waitFor({ timeout: 15_000 });
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await checkEnglish(await page.locator("main").innerText());
        await snap(page, name("personal-coin"));
        await context.close();
      });
    }
  }
});
