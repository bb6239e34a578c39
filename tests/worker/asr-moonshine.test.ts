import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { AsrEngineUnavailableError } from "../../apps/worker/src/engines/asr/types.ts";
import { clearestEnglishVoice, festivalAvailable, synthesise } from "../helpers/speech.ts";
import { normaliseWords, wordErrorRate } from "../helpers/wer.ts";

const SENTENCES = [
  "The weather was bright and clear this morning.",
  "We walked along the river and talked about our plans for the summer.",
  "My sister wants to visit the mountains, but I would rather stay near the sea.",
  "In the afternoon we will meet our friends at the library.",
];

let dir: string;
let clip: string;
const engine = new MoonshineEngine();
const voice = clearestEnglishVoice();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-moonshine-"));
  clip = await synthesise(SENTENCES.join(" "), path.join(dir, "english.wav"), voice, 0.5);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("word error rate", () => {
  it("counts substitutions, deletions and insertions over normalised words", () => {
    expect(normaliseWords("Hello, World! It's  fine.")).toEqual(["hello", "world", "it's", "fine"]);
    expect(wordErrorRate("a b c d", "a b c d").wer).toBe(0);
    expect(wordErrorRate("a b c d", "a x c").errors).toBe(2);
    expect(wordErrorRate("a b", "a b c").wer).toBe(0.5);
  });
});

describe(`moonshine engine (English, offline) on ${voice} speech`, () => {
  it("transcribes a few real sentences with a word error rate of at most 15 %", { timeout: 120_000 }, async () => {
    const progress: number[] = [];
    const started = performance.now();
    const result = await engine.transcribe(clip, { language: "en", onProgress: (f) => progress.push(f) });
    const seconds = (performance.now() - started) / 1000;
    const text = result.segments.map((s) => s.text).join(" ");
    const { wer, errors, words } = wordErrorRate(SENTENCES.join(" "), text);
    console.log(
      `moonshine: WER ${(wer * 100).toFixed(1)} % (${errors}/${words} words) in ${seconds.toFixed(2)} s: ${text}`,
    );
    expect(wer).toBeLessThanOrEqual(0.15);
    expect(result.language).toBe("en");
    // segments follow the speech in time and lie inside the clip
    const pcm = await decodeToPcm(clip);
    const clipMs = (pcm.length / 16_000) * 1000;
    expect(result.segments.length).toBeGreaterThanOrEqual(2);
    for (const [i, s] of result.segments.entries()) {
      expect(s.endMs).toBeGreaterThan(s.startMs);
      expect(s.endMs).toBeLessThanOrEqual(clipMs + 1);
      if (i > 0) expect(s.startMs).toBeGreaterThanOrEqual(result.segments[i - 1]!.endMs);
    }
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it("takes PCM directly and hot words do not disturb what it already hears", { timeout: 60_000 }, async () => {
    const pcm = await decodeToPcm(clip);
    const result = await engine.transcribe(pcm.samples, { language: "en", hotWords: ["library", "Yuelu"] });
    const text = result.segments.map((s) => s.text).join(" ");
    expect(wordErrorRate(SENTENCES.join(" "), text).wer).toBeLessThanOrEqual(0.15);
    expect(text.toLowerCase()).toContain("library");
  });

  it.runIf(festivalAvailable())("hot words pull rare names toward their spelling", { timeout: 60_000 }, async () => {
    const file = await synthesise(
      "Kubernetes and Grafana dashboards are ready for Zhang Wei.",
      path.join(dir, "names.wav"),
      "festival-slt",
      0.3,
    );
    const plain = (await engine.transcribe(file, { language: "en" })).segments.map((s) => s.text).join(" ");
    const biased = (
      await engine.transcribe(file, { language: "en", hotWords: ["Kubernetes", "Grafana", "Zhang Wei"] })
    ).segments
      .map((s) => s.text)
      .join(" ");
    console.log(`without hot words: ${plain}\nwith hot words:    ${biased}`);
    const hits = (text: string) => ["Grafana", "Zhang Wei"].filter((w) => text.includes(w)).length;
    expect(hits(biased)).toBeGreaterThan(hits(plain));
  });

  it("answers silence with no segments, not invented text", async () => {
    const result = await engine.transcribe(new Float32Array(16_000 * 3), { language: "en" });
    expect(result.segments).toEqual([]);
  });

  it("refuses Chinese with a 70001 error that names what to configure", async () => {
    const error = await engine.transcribe(new Float32Array(16_000), { language: "zh" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AsrEngineUnavailableError);
    expect((error as AsrEngineUnavailableError).code).toBe(70001);
    expect((error as Error).message).toMatch(/English only.*ASR_ENGINE_ZH/);
  });
});
