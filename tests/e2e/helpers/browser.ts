import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const SCREENSHOTS = path.resolve(import.meta.dirname, "../screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Real Chromium from the system (never a downloaded one), headless, without background networking;
 * `extraArgs` add switches (the voice test's fake microphone reading a WAV file).
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  await mkdir(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * A browser context at `viewport` whose app speaks `lang`: the language is remembered per browser,
 * so it is stored before the app reads it.
 */
export async function contextIn(
  browser: Browser,
  viewport: { width: number; height: number },
  lang: "zh" | "en",
  options: { acceptDownloads?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale: lang === "zh" ? "zh-CN" : "en-US", ...options });
  await context.addInitScript((l) => localStorage.setItem("lang", l), lang);
  return context;
}

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
