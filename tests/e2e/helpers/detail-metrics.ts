import type { Locator, Page } from "playwright-core";

/**
 * Measurements of /detail in real Chromium, shared by tests/e2e/transcript-size.e2e.test.ts and
 * bench/detail-render.mjs: time to the first segment rows, frame times over a full scroll, and
 * the time from a keystroke to the next frame.
 */

declare global {
  interface Window {
    __yueluFirstRows?: number;
    __yueluKeys?: number[];
  }
}

/**
 * Before navigating: records, in ms since the navigation started (performance.now()), the frame in
 * which the first segment rows are in the page — the rows' first paint.
 */
export async function watchFirstRows(page: Page): Promise<void> {
  // No named functions inside page functions here: loaded through tsx (the bench), esbuild's
  // keepNames would wrap them in a __name() helper that exists only in Node.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (window.__yueluFirstRows !== undefined || !document.querySelector('[data-testid="segment"]')) return;
      observer.disconnect();
      requestAnimationFrame(() => {
        window.__yueluFirstRows ??= performance.now();
      });
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

/**
 * Waits until the open /detail has its word times (the segment text split into words). Right after its first
 * rows a visit still fetches them (5 hours: ~10 MB of JSON, about a second of the server's and the browser's
 * time on 2 cores): a next visit measured in the middle of that measures the machine's leftovers, not the page.
 */
export async function waitForWordTimes(page: Page): Promise<void> {
  await page.locator(".segment-text .word").first().waitFor();
}

/** Opens `url` (watchFirstRows first) and answers when its first segment rows were painted. */
export async function openDetail(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  try {
    const handle = await page.waitForFunction(() => window.__yueluFirstRows, undefined, { timeout: 30_000 });
    return (await handle.jsonValue()) as number;
  } catch (error) {
    const text = await page.evaluate(() => document.body?.innerText.slice(0, 300)).catch(() => "");
    throw new Error(`no segment rows on ${url}; the page says: ${text}`, { cause: error });
  }
}

export interface ScrollRun {
  /** the time between consecutive frames, ms */
  frames: number[];
  /** frames in which the middle of the viewport showed no segment (a gap in the list) */
  blankFrames: number;
  /** the most segment rows in the DOM at any frame */
  maxRows: number;
  /** the last segment's row was on screen at the end */
  reachedEnd: boolean;
  /** the page's height, px */
  height: number;
}

/**
 * Scrolls the page from the top to the end, `step` px per frame (by default 60 % of the viewport
 * per frame — a fast fling), and records every frame.
 */
export async function scrollToEnd(page: Page, step?: number): Promise<ScrollRun> {
  return page.evaluate(async (stepPx) => {
    window.scrollTo({ top: 0, behavior: "instant" });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const by = stepPx ?? Math.round(window.innerHeight * 0.6);
    const frames: number[] = [];
    let blankFrames = 0;
    let maxRows = 0;
    const probeX = (() => {
      const list = document.querySelector(".segments")?.getBoundingClientRect();
      return list ? list.left + list.width / 2 : window.innerWidth / 2;
    })();
    let last = await new Promise<number>((r) => requestAnimationFrame(r));
    let still = 0;
    // the end: the page no longer moves (the list may still grow as rows get measured)
    while (still < 5) {
      const now = await new Promise<number>((r) => requestAnimationFrame(r));
      frames.push(now - last);
      last = now;
      maxRows = Math.max(maxRows, document.querySelectorAll('[data-testid="segment"]').length);
      // a gap: no row at the viewport's 60 % line (give or take the 4 px between rows)
      const y = window.innerHeight * 0.6;
      const rows = document.querySelectorAll(".segment-row");
      let covered = false;
      for (let i = 0; i < rows.length && !covered; i++) {
        const r = rows[i]!.getBoundingClientRect();
        covered = r.top <= y + 4 && r.bottom >= y - 4 && r.left <= probeX && r.right >= probeX;
      }
      if (!covered) blankFrames += 1;
      const before = window.scrollY;
      window.scrollBy({ top: by, behavior: "instant" });
      still = window.scrollY === before ? still + 1 : 0;
    }
    const rows = Array.from(document.querySelectorAll<HTMLElement>(".segment-row"));
    const count = Number(document.querySelector(".segments")?.getAttribute("data-count") ?? 0);
    const lastRow = rows.find((r) => Number(r.dataset.index) === count - 1);
    const rect = lastRow?.getBoundingClientRect();
    return {
      frames,
      blankFrames,
      maxRows,
      reachedEnd: Boolean(rect && rect.bottom <= window.innerHeight + 1 && rect.top >= 0),
      height: document.documentElement.scrollHeight,
    };
  }, step);
}

/** Starts timing keystrokes: each keydown's time to the frame after its input was handled. */
export async function watchKeys(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__yueluKeys = [];
    let down = 0;
    document.addEventListener("keydown", (e) => (down = e.timeStamp), true);
    document.addEventListener("input", () => {
      const from = down;
      requestAnimationFrame(() => setTimeout(() => window.__yueluKeys?.push(performance.now() - from), 0));
    });
  });
}

/** Types `text` into `target` a key at a time and answers each key's time to the next frame, ms. */
export async function typeTimed(page: Page, target: Locator, text: string): Promise<number[]> {
  await page.evaluate(() => {
    window.__yueluKeys = [];
  });
  await target.pressSequentially(text, { delay: 60 });
  await page.waitForFunction((n) => (window.__yueluKeys?.length ?? 0) >= n, [...text].length);
  return page.evaluate(() => window.__yueluKeys ?? []);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const summary = (values: readonly number[]) => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  max: values.length ? Math.max(...values) : Number.NaN,
  n: values.length,
});
