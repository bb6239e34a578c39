import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyFrontEnd } from "../../apps/worker/src/audio/front-end.ts";
import { decodeToPcm, type Pcm } from "../../apps/worker/src/audio/pcm.ts";
import { detectSpeech, energyProfile } from "../../apps/worker/src/audio/vad.ts";
import { BackgroundVoicePrints } from "../../apps/worker/src/speech/background-voice-prints.ts";
import { voicePrints } from "../../apps/worker/src/speech/diarize.ts";
import { JFK_MP3 } from "../helpers/voice-dsp.ts";

/**
 * A transcription keeps the decoded recording in a file, not in memory (issue 44: 3 hours are 346 MB of
 * samples), and reads it window by window: what it reads is what the recording held in memory gives, the
 * voice-print thread reads the same file, and nothing is left on disk.
 */
let dir: string;
let inMemory: Pcm;
let spooled: Pcm & { cut: boolean };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-spool-"));
  inMemory = await decodeToPcm(JFK_MP3);
  spooled = await decodeToPcm(JFK_MP3, { spoolDir: path.join(dir, "spool") });
});
afterAll(async () => {
  spooled.close?.();
  await rm(dir, { recursive: true, force: true });
});

describe("a spooled recording", () => {
  it("reads as the recording held in memory does, and leaves no file behind", async () => {
    expect(spooled.length).toBe(inMemory.length);
    expect(spooled.cut).toBe(false);
    // unlinked as soon as it was opened: the folder is empty while the recording is still read
    expect(await readdir(path.join(dir, "spool"))).toEqual([]);
    for (const [start, end] of [
      [0, inMemory.length],
      [0, 1],
      [12_345, 67_890],
      [inMemory.length - 100, inMemory.length + 500],
    ] as const) {
      expect(spooled.slice(start, end)).toEqual(inMemory.slice(start, end));
    }
    expect(spooled.samples).toEqual(inMemory.samples);
    expect(energyProfile(spooled)).toEqual(energyProfile(inMemory));
  });

  it("goes through the front end as the recording in memory does", () => {
    const run = (pcm: Pcm) => applyFrontEnd(pcm, energyProfile(pcm));
    const a = run(spooled);
    const b = run(inMemory);
    expect(a.report).toEqual(b.report);
    // the JFK sample is telephone-band: its upper band is lifted, so the engine hears new audio
    expect(a.report.narrowBand).toBe(true);
    expect(a.pcm).not.toBe(spooled);
    expect(a.pcm.slice(0, a.pcm.length)).toEqual(b.pcm.slice(0, b.pcm.length));
  });

  it("is read by the voice-print thread too (the same prints as in memory)", { timeout: 60_000 }, async () => {
    const regions = detectSpeech(inMemory);
    const profile = energyProfile(inMemory);
    const background = new BackgroundVoicePrints(spooled, profile);
    for (const r of regions.slice(0, 2)) background.add(r);
    const fromThread = await background.collect(regions);
    const inProcess = await voicePrints(inMemory, regions, profile);
    expect(fromThread.prints.some((p) => p !== null)).toBe(true);
    expect(fromThread.prints).toEqual(inProcess.prints);
    expect(fromThread.stats).toEqual(inProcess.stats);
  });

  it("cannot be read once closed (never another file's bytes)", async () => {
    const pcm = await decodeToPcm(JFK_MP3, { spoolDir: path.join(dir, "spool") });
    expect(pcm.slice(0, 10)).toHaveLength(10);
    pcm.close?.();
    expect(() => pcm.slice(0, 10)).toThrow(/closed/);
  });
});
