import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextIn, DESKTOP, launchBrowser, SCREENSHOTS, shot } from "./helpers/browser.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { signInNewUser } from "./helpers/session.ts";

/**
 * My voice, AI singing and song voice conversion end to end in real Chromium against the real server
 * (API + worker in process + built SPA). Chromium's fake microphone plays a real human clip (JFK's
 * "ask not", looped to 33 s at 48 kHz): the guided recorder refuses a 3-second take, records 15
 * seconds, and the voice is made from it (its analysis, profile, preview); a built-in tune is sung
 * with it, played and downloaded; a short stereo song made here (the clip in the centre, two tones
 * either side) is converted and compared before and after. Once in Chinese on a desktop, once in
 * English on a 375-pixel phone; every page photographed in both languages at both widths
 * (tests/e2e/screenshots/, git-ignored). Needs `npm run build` first and chromium.
 */
const require = createRequire(import.meta.url);
const FFMPEG = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
const WHISPER = path.resolve(import.meta.dirname, "../../node_modules/nodejs-whisper/cpp/whisper.cpp");
const JFK = [path.join(WHISPER, "samples/jfk.wav"), path.join(WHISPER, "bindings/go/samples/jfk.wav")].find((p) =>
  existsSync(p),
);
const PHONE = { width: 375, height: 812 };

let server: RunningServer;
let browser: Browser;
let work: string;
let sample: string;
let song: string;
let midiFile: string;
let cookies: Awaited<ReturnType<BrowserContext["cookies"]>> = [];
let method: "match" | "clone" = "match";
const phone = `137${String(Date.now()).slice(-8)}`;

function ffmpeg(args: string[]) {
  execFileSync(FFMPEG, ["-hide_banner", "-loglevel", "error", "-y", ...args]);
}

beforeAll(async () => {
  if (!JFK) throw new Error(`no jfk.wav under ${WHISPER}: npm ci installs nodejs-whisper with its samples`);
  work = await mkdtemp(path.join(tmpdir(), "yuelu-voice-e2e-"));
  // the microphone: a real voice, long enough for any take, at the rate browsers capture
  sample = path.join(work, "voice-sample.wav");
  ffmpeg(["-stream_loop", "2", "-i", JFK, "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", sample]);
  // a song: the voice in the centre, a tone on each side (what the vocal separation keeps and drops)
  song = path.join(work, "stereo-song.wav");
  ffmpeg([
    "-i",
    JFK,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=220:duration=10:sample_rate=44100",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=330:duration=10:sample_rate=44100",
    "-filter_complex",
    "[0:a]aresample=44100,atrim=0:10,asetpts=N/SR/TB,pan=stereo|c0=c0|c1=c0[v];[1:a]volume=0.25[l];[2:a]volume=0.25[r];[l][r]join=inputs=2:channel_layout=stereo[m];[v][m]amix=inputs=2,volume=2[out]",
    "-map",
    "[out]",
    "-ar",
    "44100",
    "-c:a",
    "pcm_s16le",
    song,
  ]);
  // a melody of eight notes, as a MIDI file (read in the page by its lazily loaded MIDI reader)
  const { Midi } = require("@tonejs/midi") as typeof import("@tonejs/midi");
  const midi = new Midi();
  midi.header.setTempo(96);
  const track = midi.addTrack();
  for (const [i, m] of [60, 62, 64, 65, 67, 69, 71, 72].entries()) {
    track.addNote({ midi: m, ticks: i * midi.header.ppq, durationTicks: midi.header.ppq });
  }
  midiFile = path.join(work, "scale.mid");
  await writeFile(midiFile, midi.toArray());
  // Its own queues in its own database, workers in process (records.e2e explains why: no shared Redis).
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    server = await startServer({ WORKER_MODE: "embedded" });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
  browser = await launchBrowser([
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${sample}`,
    "--autoplay-policy=no-user-gesture-required",
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function newContext(viewport: { width: number; height: number }, lang: "zh" | "en") {
  const ctx = await contextIn(browser, viewport, lang, { acceptDownloads: true });
  await ctx.grantPermissions(["microphone"], { origin: server.baseUrl });
  if (cookies.length > 0) await ctx.addCookies(cookies);
  return ctx;
}

/** A screenshot once entry animations are over (spinners and the recording dot run on). */
async function snap(p: Page, name: string) {
  await p.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  await shot(p, name);
  await p.screenshot({ path: path.join(SCREENSHOTS, `${name}-full.png`), fullPage: true });
}

const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Waits until an audio element really plays: its time moves on. */
async function expectPlaying(audio: Locator) {
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => (el.paused ? -1 : el.currentTime)), { timeout: 20_000 })
    .toBeGreaterThan(0.05);
}

/** Waits for something the worker makes (a voice's analysis, a work) to end, and expects it done. */
async function expectDone(item: Locator, what: string, timeout = 240_000) {
  try {
    await expect.poll(() => item.getAttribute("data-phase"), { timeout }).toMatch(/done|failed/);
  } catch (error) {
    const log = server
      .output()
      .split("\n")
      .filter((l) => !l.includes('"reqId"'));
    throw new Error(`${what} not finished after ${timeout / 1000} s; server log:\n${log.slice(-30).join("\n")}`, {
      cause: error,
    });
  }
  expect(await item.getAttribute("data-phase"), `${what}: ${await item.innerText()}`).toBe("done");
}

/** Follows a download link: an audio file of some length. */
async function download(p: Page, link: Locator) {
  const downloading = p.waitForEvent("download");
  await link.click();
  const file = await (await downloading).path();
  expect((await stat(file)).size).toBeGreaterThan(1000);
}

/** The guided recorder: a take of `seconds` from the fake microphone. */
async function record(panel: Locator, seconds: number) {
  await panel.getByTestId("recorder-start").click();
  await panel.getByTestId("recorder-stop").waitFor();
  // the level meter moves with the clip
  await expect
    .poll(() => panel.getByRole("meter").getAttribute("aria-valuenow").then(Number), { timeout: 10_000 })
    .toBeGreaterThan(0);
  const time = new RegExp(`^0:${String(seconds).padStart(2, "0")}`);
  await expect
    .poll(() => panel.getByTestId("recorder-time").innerText(), { timeout: seconds * 1000 + 15_000 })
    .toMatch(time);
  await panel.getByTestId("recorder-stop").click();
  await panel.getByTestId("take-player").waitFor();
}

/** /myVoice: a new voice recorded in the page (a too-short take refused first), analysed; answers its card. */
async function makeVoice(p: Page, lang: "zh" | "en", name: string): Promise<Locator> {
  await p.goto(`${server.baseUrl}/myVoice`);
  await p.getByTestId("my-voice-page").waitFor({ timeout: 20_000 });
  const panel = p.getByTestId("new-voice");
  // the list is in: its voices, or (none yet) the new-voice form
  await p.getByTestId("new-voice").or(p.getByTestId("my-voice")).first().waitFor({ timeout: 20_000 });
  if (!(await panel.isVisible())) await p.getByTestId("new-voice-open").click();
  await panel.getByTestId("voice-name-input").fill(name);
  await panel.getByTestId("voice-language").selectOption(lang);
  // the prompts are in the voice's language
  expect(await panel.getByRole("listitem").first().innerText()).toMatch(lang === "zh" ? /[\u4e00-\u9fff]/ : /^[A-Z]/);

  await record(panel, 3);
  expect(await panel.getByTestId("take-too-short").innerText()).toMatch(
    lang === "zh" ? /至少需要 10 秒/ : /at least 10 s/,
  );
  expect(await panel.getByTestId("create-voice").isDisabled()).toBe(true);
  await record(panel, 15);
  expect(await panel.getByTestId("take-too-short").count()).toBe(0);
  await snap(p, `my-voice-recorded-${lang}`);

  await panel.getByTestId("create-voice").click();
  const card = p.getByTestId("my-voice").filter({ hasText: name });
  await card.waitFor({ timeout: 60_000 });
  await expectDone(card, `voice ${name}`);
  // what was measured, and how it is made, said plainly
  expect(await card.getByTestId("median-pitch").innerText()).toMatch(/\d+ Hz/);
  const badge = await card.getByTestId("method-badge").innerText();
  if (method === "match") {
    expect(badge).toBe(lang === "zh" ? "声音匹配" : "Voice matching");
    expect(await card.getByTestId("base-voice").innerText()).not.toBe("");
    expect(await p.locator("body").innerText()).not.toMatch(/克隆|clone/i);
  } else {
    expect(badge).toBe(lang === "zh" ? "声音克隆" : "Voice clone");
  }
  await card.getByTestId("voice-preview").click();
  await expectPlaying(card.getByTestId("preview-player").locator("audio"));
  await card.getByTestId("voice-sample").click();
  await expectPlaying(card.getByTestId("sample-player").locator("audio"));
  await card.getByTestId("voice-sample").click();
  return card;
}

/** /songConversion: the first built-in tune sung by `voiceName`, a key up; played and downloaded. */
async function sing(p: Page, lang: "zh" | "en", voiceName: string) {
  await p.goto(`${server.baseUrl}/songConversion`);
  const roll = p.getByTestId("piano-roll");
  await roll.waitFor({ timeout: 20_000 });
  const lyrics = p.getByTestId("lyrics");
  await expect.poll(() => lyrics.inputValue()).not.toBe("");
  expect(await p.getByTestId("sing-language").inputValue()).toBe(lang);
  // the built-in lyrics have one syllable per note
  const [n, m] = ((await p.getByTestId("syllable-count").innerText()).match(/\d+/g) ?? []).map(Number);
  expect(n).toBe(m);
  expect(await roll.getByTestId("roll-note").count()).toBe(m);
  const first = await roll.getByTestId("roll-note").first().getAttribute("data-midi");
  await p.getByTestId("key-shift").fill("2");
  expect(Number(await roll.getByTestId("roll-note").first().getAttribute("data-midi"))).toBe(Number(first) + 2);
  await p.getByTestId("voice-choice").selectOption({ label: voiceName });
  await p.getByTestId("sing-create").click();
  const result = p.getByTestId("work-result");
  await result.waitFor({ timeout: 30_000 });
  await expectDone(result, "the sung song");
  const player = result.getByTestId("result-player");
  await player.getByTestId("player-toggle").click();
  await expectPlaying(player.locator("audio"));
  await player.getByTestId("player-toggle").click();
  await download(p, player.getByTestId("player-download"));
  await expect.poll(() => p.getByTestId("voice-work").count()).toBeGreaterThan(0);
  // a MIDI file of the user's is read in the page and drawn
  await p.locator('label:has([data-testid="melody-midi"])').click();
  await p.getByTestId("midi-file").setInputFiles(midiFile);
  expect(await p.getByTestId("midi-picked").innerText()).toMatch(
    lang === "zh" ? /8 个音符 · 96 BPM/ : /8 notes · 96 BPM/,
  );
  expect(await roll.getByTestId("roll-note").count()).toBe(8);
}

/** /song-conversion: the stereo song converted into `voiceName`, then before and after from the same second. */
async function convert(p: Page, voiceName: string) {
  await p.goto(`${server.baseUrl}/song-conversion`);
  await p.getByTestId("song-file").setInputFiles(song);
  await p.getByTestId("song-picked").waitFor();
  expect(await overflow(p), "a song picked").toBeLessThanOrEqual(0);
  await p.getByTestId("semitones").fill("-2");
  await p.getByTestId("voice-choice").selectOption({ label: voiceName });
  await p.getByTestId("convert-create").click();
  const result = p.getByTestId("work-result");
  await result.waitFor({ timeout: 60_000 });
  await expectDone(result, "the converted song");
  const player = result.getByTestId("result-player");
  await player.getByTestId("waveform").waitFor({ timeout: 20_000 });
  expect(await player.getByTestId("waveform").locator("rect").count()).toBeGreaterThan(100);
  await player.getByTestId("player-toggle").click();
  const after = player.locator('audio[data-side="after"]');
  const before = player.locator('audio[data-side="before"]');
  await expect
    .poll(() => after.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(1);
  await player.locator('label:has([data-testid="ab-before"])').click();
  expect(await player.getAttribute("data-side")).toBe("before");
  // the original takes over where the converted one was, and plays on
  await expectPlaying(before);
  expect(await before.evaluate((el: HTMLAudioElement) => el.currentTime)).toBeGreaterThan(0.9);
  expect(await after.evaluate((el: HTMLAudioElement) => el.paused)).toBe(true);
  await player.getByTestId("player-toggle").click();
  await download(p, player.getByTestId("player-download"));
}

describe("my voice, AI singing and song conversion", () => {
  it("signs a new user in", async () => {
    const ctx = await contextIn(browser, DESKTOP, "zh");
    await signInNewUser(ctx, server.baseUrl, phone);
    cookies = await ctx.cookies();
    const res = await ctx.request.get(`${server.baseUrl}/voice_yuelu/voice/capabilities`);
    const body = (await res.json()) as { status_code: number; data: { myVoiceMethod: "match" | "clone" } };
    expect(body.status_code).toBe(1);
    method = body.data.myVoiceMethod;
    await ctx.close();
  });

  for (const [lang, size, viewport, name] of [
    ["zh", "desktop", DESKTOP, "我的声音"],
    ["en", "phone", PHONE, "My English voice"],
  ] as const) {
    it(`${lang} on a ${size}: records a voice, sings a tune with it, converts a song into it`, async () => {
      const ctx = await newContext(viewport, lang);
      const p = await ctx.newPage();
      try {
        await makeVoice(p, lang, name);
        await snap(p, `my-voice-${size}-${lang}`);
        expect(await overflow(p), `my voice ${size} ${lang}`).toBeLessThanOrEqual(0);
        await sing(p, lang, name);
        await snap(p, `sing-${size}-${lang}`);
        expect(await overflow(p), `sing ${size} ${lang}`).toBeLessThanOrEqual(0);
        await convert(p, name);
        await snap(p, `convert-${size}-${lang}`);
        expect(await overflow(p), `convert ${size} ${lang}`).toBeLessThanOrEqual(0);
      } finally {
        await ctx.close();
      }
    }, 900_000);
  }

  it("looks right in zh and en, on a phone and on a desktop", async () => {
    for (const lang of ["zh", "en"] as const) {
      for (const [size, viewport] of [
        ["phone", PHONE],
        ["desktop", DESKTOP],
      ] as const) {
        const ctx = await newContext(viewport, lang);
        const p = await ctx.newPage();
        for (const [route, page, ready] of [
          ["/myVoice", "my-voice", "my-voice"],
          ["/songConversion", "sing", "voice-work"],
          ["/song-conversion", "convert", "voice-work"],
        ] as const) {
          await p.goto(`${server.baseUrl}${route}`);
          await p.getByTestId(ready).first().waitFor({ timeout: 20_000 });
          await snap(p, `${page}-page-${size}-${lang}`);
          expect(await overflow(p), `${route} ${size} ${lang}`).toBeLessThanOrEqual(0);
        }
        await ctx.close();
      }
    }
  }, 300_000);
});
