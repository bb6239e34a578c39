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
 * its upload runs while it records, the tab is reloaded after ~18 s, and /transaudio offers the recording back with
 * its length; uploading it goes on from what the server already holds and makes a record of that length, and only
 * then is the local copy gone. Another recording is stopped normally: Stop sends only what was not sent yet.
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
      // one click records (issue 43)
      await page.getByRole("button", { name: lang === "zh" ? "开始录音" : "Record", exact: true }).click();
      await page.getByTestId("recorder-saved").waitFor();
      await expect.poll(() => page.getByTestId("recorder-time").innerText(), { timeout: 30_000 }).toBe("0:18");

      // the tab goes away mid-recording (no stop); what was uploaded while recording (~15 s) stays on the server
      const offsets: number[] = [];
      page.on("request", (req) => {
        if (req.method() === "PATCH" && req.url().includes("/audio/uploads/")) {
          offsets.push(Number(req.headers()["upload-offset"]));
        }
      });
      await page.reload();
      const offer = page.getByTestId("recovered-recording");
      await offer.waitFor({ timeout: 15_000 });
      const text = await offer.innerText();
      expect(text).toContain(lang === "zh" ? "恢复未上传的录音" : "Recover unsaved recording");
      const seconds = Number(/0:(\d\d)/.exec(text)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(16);
      expect(seconds).toBeLessThanOrEqual(19);
      await shot(page, `transaudio-recovered-${lang}`);

      await page.getByTestId("recover-upload").click();
      const item = page.getByTestId("upload-item");
      await item.getByText(lang === "zh" ? "上传完成" : "Uploaded").waitFor({ timeout: 30_000 });
      const name = await item.locator(".upload-item-name").innerText();
      expect(name).toMatch(/\.webm$/);
      // the recovered recording went on from the server's offset, not from its first byte
      expect(offsets.length).toBeGreaterThanOrEqual(1);
      expect(offsets[0]).toBeGreaterThan(0);
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

  it("uploads while recording: the server holds the first part before Stop, and Stop sends only the rest", async () => {
    const context = await contextIn(browser, DESKTOP, "en");
    await context.grantPermissions(["microphone"], { origin: server.baseUrl });
    await signInNewUser(context, server.baseUrl, `136${String(Date.now()).slice(-8)}`, { checkIn: false });
    const page = await context.newPage();
    const patches: { at: number; offset: number; length: string | null }[] = [];
    page.on("request", (req) => {
      if (req.method() === "PATCH" && req.url().includes("/audio/uploads/")) {
        const headers = req.headers();
        patches.push({
          at: Date.now(),
          offset: Number(headers["upload-offset"]),
          length: headers["upload-length"] ?? null,
        });
      }
    });
    await page.goto(`${server.baseUrl}/transaudio`);
    await page.getByRole("button", { name: "Record", exact: true }).click();
    await page.getByTestId("upload-while-recording").waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId("recorder-time").innerText(), { timeout: 40_000 }).toBe("0:20");
    const beforeStop = patches.length;
    // at least one PATCH (about every 15 s) carried audio while the microphone was still on
    expect(beforeStop).toBeGreaterThanOrEqual(1);
    expect(patches[0]!.length).toBeNull();
    await page.getByTestId("recorder-stop").click();
    const item = page.getByTestId("upload-item");
    await item.getByText("Uploaded").waitFor({ timeout: 30_000 });
    // the last PATCH went on from where the recording's upload was, and declared the length
    const last = patches.at(-1)!;
    expect(last.offset).toBeGreaterThan(0);
    expect(Number(last.length)).toBeGreaterThan(last.offset);
    const name = await item.locator(".upload-item-name").innerText();
    const list = await context.request.get(`${server.baseUrl}/voice_yuelu/api/v3/audio/all_list`);
    const { data } = (await list.json()) as { data: { records: { fileName: string; timeLen: number }[] } };
    const record = data.records.find((r) => r.fileName === name);
    expect(record).toBeDefined();
    expect(Math.abs(record!.timeLen - 20)).toBeLessThanOrEqual(2);
    // confirmed: nothing left to recover
    await page.reload();
    await page.getByTestId("upload-zone").waitFor();
    await page.waitForTimeout(1000);
    expect(await page.getByTestId("recovered-recording").count()).toBe(0);
    await context.close();
  }, 120_000);
});
