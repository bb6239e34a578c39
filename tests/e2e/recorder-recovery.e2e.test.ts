import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextIn, DESKTOP, launchBrowser, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * A recording that survives a reload (issue 31), in real Chromium against the real server: the fake
 * microphone plays real speech (JFK's inaugural, looped), the recorder writes each second to IndexedDB,
 * the tab is reloaded after ~14 s, and /transaudio offers the recording back with its length; uploading
 * it (over tus) makes a record of that length, and only then is the local copy gone.
 * Needs `npm run build` first and chromium.
 */
const require = createRequire(import.meta.url);
const FFMPEG = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
const JFK = path.resolve(
  import.meta.dirname,
  "../../node_modules/nodejs-whisper/cpp/whisper.cpp/bindings/go/samples/jfk.wav",
);

let server: RunningServer;
let browser: Browser;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "yuelu-recorder-e2e-"));
  const speech = path.join(work, "speech.wav");
  execFileSync(FFMPEG, [
    ...["-hide_banner", "-loglevel", "error", "-y", "-stream_loop", "3", "-i", JFK],
    ...["-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", speech],
  ]);
  server = await startServer();
  browser = await launchBrowser([
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${speech}`,
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the recorder cannot lose a recording", () => {
  for (const lang of ["zh", "en"] as const) {
    it(`offers a recording back after a reload mid-recording, with its length, and uploads it (${lang})`, async () => {
      const context = await contextIn(browser, DESKTOP, lang);
      await context.grantPermissions(["microphone"], { origin: server.baseUrl });
      await signInNewUser(context, server.baseUrl, `137${String(Date.now()).slice(-8)}`, { checkIn: false });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/transaudio`);
      await page.getByRole("button", { name: lang === "zh" ? "开始录音" : "Record", exact: true }).click();
      await page.getByTestId("recorder-start").click();
      await page.getByTestId("recorder-saved").waitFor();
      await expect.poll(() => page.getByTestId("recorder-time").innerText(), { timeout: 30_000 }).toBe("0:14");

      // the tab goes away mid-recording (no stop, no upload)
      await page.reload();
      const offer = page.getByTestId("recovered-recording");
      await offer.waitFor({ timeout: 15_000 });
      const text = await offer.innerText();
      expect(text).toContain(lang === "zh" ? "恢复未上传的录音" : "Recover unsaved recording");
      const seconds = Number(/0:(\d\d)/.exec(text)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(12);
      expect(seconds).toBeLessThanOrEqual(15);
      await shot(page, `transaudio-recovered-${lang}`);

      await page.getByTestId("recover-upload").click();
      const item = page.getByTestId("upload-item");
      await item.getByText(lang === "zh" ? "上传完成" : "Uploaded").waitFor({ timeout: 30_000 });
      const name = await item.locator(".upload-item-name").innerText();
      expect(name).toMatch(/\.webm$/);
      const list = await context.request.get(`${server.baseUrl}/voice_yuelu/api/v3/audio/all_list`);
      const { data } = (await list.json()) as { data: { records: { fileName: string; timeLen: number }[] } };
      const record = data.records.find((r) => r.fileName === name);
      expect(record).toBeDefined();
      expect(Math.abs(record!.timeLen - seconds)).toBeLessThanOrEqual(2);

      // confirmed by the server: the local copy is gone, nothing is offered any more
      await page.reload();
      await page.getByTestId("upload-zone").waitFor();
      await page.waitForTimeout(1000);
      expect(await page.getByTestId("recovered-recording").count()).toBe(0);
      await context.close();
    }, 120_000);
  }
});
