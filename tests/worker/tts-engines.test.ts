import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TTS_PROBLEM_FIX, ttsProblemMessage } from "@yuelu/contracts";
import { forgetTools } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeWav } from "../../apps/worker/src/audio/pcm.ts";
import { joinPieces, normaliseLoudness, parseWav, trimSilence } from "../../apps/worker/src/audio/speech-audio.ts";
import { EspeakEngine, espeakArguments } from "../../apps/worker/src/engines/tts/espeak.ts";
import {
  configuredTtsEngines,
  type TtsConfig,
  ttsEngineMissing,
  ttsEngineReports,
} from "../../apps/worker/src/engines/tts/factory.ts";
import { FestivalEngine, festivalText } from "../../apps/worker/src/engines/tts/festival.ts";
import { GptSovitsEngine } from "../../apps/worker/src/engines/tts/gpt-sovits.ts";
import { OpenAiTtsEngine } from "../../apps/worker/src/engines/tts/openai.ts";
import { type PcmAudio, TtsEngineUnavailableError } from "../../apps/worker/src/engines/tts/types.ts";
import { enOrdinal, enYear, zhInteger } from "../../apps/worker/src/speech/spoken-numbers.ts";
import { normaliseChinese, normaliseEnglish, speechPieces } from "../../apps/worker/src/speech/tts-text.ts";
import { libraryVoices } from "../../prisma/src/seed/voices.ts";

const BASE: TtsConfig = {
  TTS_ENGINE_ZH: "espeak-ng",
  TTS_ENGINE_EN: "festival",
  ESPEAK_NG_BIN: "espeak-ng",
  FESTIVAL_BIN: "festival",
  OPENAI_TTS_URL: undefined,
  OPENAI_TTS_KEY: undefined,
  OPENAI_TTS_MODEL: "tts-1",
  GPTSOVITS_URL: undefined,
  GPTSOVITS_REF_AUDIO: undefined,
  GPTSOVITS_PROMPT_TEXT: undefined,
  GPTSOVITS_PROMPT_LANG: "zh",
};

const secondsOf = (a: PcmAudio) => a.samples.length / a.sampleRate;
const peakOf = (a: PcmAudio) => a.samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0) / 32768;

/** A tone as 16-bit mono WAV (what the fake servers answer). */
function toneWav(seconds: number, rate = 24_000): Buffer {
  const samples = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < samples.length; i++) samples[i] = 0.3 * Math.sin((2 * Math.PI * 220 * i) / rate);
  return encodeWav(samples, rate);
}

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

/**
 * Test double of a speech server (named as a fake): records each JSON request and answers a tone
 * whose length follows the text (0.05 s a character), as WAV, MP3 or an error status.
 */
class FakeSpeechServer {
  readonly received: Received[] = [];
  status = 200;
  answer: "wav" | "mp3" = "wav";
  private readonly server: Server = createServer((req, res) => {
    void this.handle(req).then(
      (body) => {
        if (this.status !== 200) {
          res.writeHead(this.status, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: "nope" } }));
          return;
        }
        res.writeHead(200, { "content-type": this.answer === "wav" ? "audio/wav" : "audio/mpeg" });
        res.end(body);
      },
      (error: Error) => {
        res.writeHead(400);
        res.end(error.message);
      },
    );
  });

  async start(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    this.server.close();
  }

  private async handle(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    this.received.push({ path: req.url ?? "", headers: req.headers, body });
    const text = String(body.input ?? body.text ?? "");
    const wav = toneWav(0.3 + text.length * 0.05);
    if (this.answer === "wav") return wav;
    return execFileSync("ffmpeg", ["-loglevel", "error", "-f", "wav", "-i", "pipe:0", "-f", "mp3", "pipe:1"], {
      input: wav,
    });
  }
}

describe("text for speech", () => {
  it("reads numbers, dates, times, percentages, money and units in Mandarin", () => {
    expect(zhInteger("12345")).toBe("一万二千三百四十五");
    expect(zhInteger("100010")).toBe("十万零一十");
    expect(zhInteger("2", { liang: true })).toBe("两");
    expect(normaliseChinese("2024年3月5日")).toBe("二零二四年三月五日");
    expect(normaliseChinese("2024-03-05上午")).toBe("二零二四年三月五日上午");
    expect(normaliseChinese("增长3.5%")).toBe("增长百分之三点五");
    expect(normaliseChinese("10:30开会，10:05到，2:00走")).toBe("十点三十分开会，十点零五分到，两点整走");
    expect(normaliseChinese("气温-5℃，跑了3-5km")).toBe("气温负五摄氏度，跑了三到五公里");
    expect(normaliseChinese("¥1,234.50")).toBe("一千二百三十四点五元");
    expect(normaliseChinese("电话13800138000")).toBe("电话一三八零零一三八零零零");
    expect(normaliseChinese("2个人")).toBe("两个人");
  });

  it("reads them in English", () => {
    expect(enOrdinal("21")).toBe("twenty-first");
    expect(enYear("2024")).toBe("twenty twenty-four");
    expect(enYear("2005")).toBe("two thousand five");
    expect(normaliseEnglish("2024年3月5日")).toBe("March fifth, twenty twenty-four");
    expect(normaliseEnglish("On 2024-03-05 we met.")).toBe("On March fifth, twenty twenty-four we met.");
    expect(normaliseEnglish("It grew 3.5% in 2023.")).toBe("It grew three point five percent in twenty twenty-three.");
    expect(normaliseEnglish("at 10:30, 10:05 am or 10:00")).toBe("at ten thirty, ten oh five a m or ten o'clock");
    expect(normaliseEnglish("$5.50 and £1")).toBe("five dollars and fifty cents and one pound");
    expect(normaliseEnglish("3-5 km at -5°C")).toBe("three to five kilometers at minus five degrees Celsius");
    expect(normaliseEnglish("1,234,567 people")).toBe(
      "one million two hundred thirty-four thousand five hundred sixty-seven people",
    );
  });

  it("cuts sentences at Chinese and English punctuation, keeps abbreviations, pauses longer between paragraphs", () => {
    expect(speechPieces("今天天气很好。我们去公园吧！好吗？\n走吧", "zh")).toEqual([
      { text: "今天天气很好。", pauseMs: 420 },
      { text: "我们去公园吧！", pauseMs: 420 },
      { text: "好吗？", pauseMs: 700 },
      { text: "走吧", pauseMs: 0 },
    ]);
    const en = speechPieces('Dr. Smith came at 10:30. He said: "Hi!" Then left; fine.', "en");
    expect(en.map((p) => p.text)).toEqual(["Dr. Smith came at ten thirty.", 'He said: "Hi!"', "Then left;", "fine."]);
    // a long sentence is cut at its commas; nothing speakable → no piece
    const long = speechPieces(`${"很长的一句话，".repeat(20)}结束。`, "zh");
    expect(long.length).toBeGreaterThan(1);
    expect(long.every((p) => [...p.text].length <= 60)).toBe(true);
    expect(speechPieces("……！？ 🎉", "zh")).toEqual([]);
  });

  it("makes text safe for festival's Scheme strings", () => {
    expect(festivalText('He said "stop" \\ now — café “x”')).toBe("He said stop now , cafe x");
  });
});

describe("audio plumbing", () => {
  it("reads WAV files, streamed ones included, and joins trimmed pieces with their pauses", () => {
    const wav = toneWav(0.5, 16_000);
    const parsed = parseWav(wav)!;
    expect(parsed.sampleRate).toBe(16_000);
    expect(secondsOf(parsed)).toBeCloseTo(0.5, 2);
    const streamed = Buffer.from(wav);
    streamed.writeUInt32LE(0xffffffff, 40);
    expect(parseWav(streamed)?.samples.length).toBe(parsed.samples.length);
    expect(parseWav(Buffer.from("not audio"))).toBeUndefined();

    const padded: PcmAudio = { sampleRate: 16_000, samples: new Int16Array(16_000 + parsed.samples.length) };
    padded.samples.set(parsed.samples, 8000);
    expect(trimSilence(padded).length / 16_000).toBeCloseTo(0.5 + 0.055, 1);
    const joined = joinPieces([padded, padded], [400, 0]);
    // 0.1 s lead + (0.555 + 0.4) + 0.555 + 0.1 s tail
    expect(secondsOf(joined)).toBeCloseTo(1.71, 1);
  });

  it("levels loudness to the same target whatever the input level, and never clips", () => {
    const quiet = parseWav(toneWav(1, 16_000))!;
    const scaled = (factor: number): PcmAudio => ({
      sampleRate: quiet.sampleRate,
      samples: quiet.samples.map((v) => Math.round(v * factor)),
    });
    const a = normaliseLoudness(scaled(0.05)).audio;
    const b = normaliseLoudness(scaled(1)).audio;
    expect(peakOf(a)).toBeCloseTo(peakOf(b), 2);
    expect(peakOf(normaliseLoudness(scaled(1), 2).audio)).toBeLessThanOrEqual(0.9);
  });
});

describe("espeak-ng (real)", () => {
  const engine = new EspeakEngine({ configured: "espeak-ng" });

  it("speaks Mandarin and English, one piece per sentence, reporting progress", { timeout: 30_000 }, async () => {
    const done: number[] = [];
    const zh = await engine.synthesize(["今天天气很好。", "我们去公园散步吧。"], {
      language: "zh",
      params: { voice: "cmn", variant: "f2" },
      speed: 1,
      pitch: 0,
      onProgress: (n) => done.push(n),
    });
    expect(zh.pieces).toHaveLength(2);
    for (const piece of zh.pieces) {
      expect(secondsOf(piece)).toBeGreaterThan(0.8);
      expect(peakOf(piece)).toBeGreaterThan(0.05);
    }
    expect(done.sort()).toEqual([1, 2]);
    const en = await engine.synthesize(["Hello world."], { language: "en", params: {}, speed: 1, pitch: 0 });
    expect(secondsOf(en.pieces[0]!)).toBeGreaterThan(0.5);
  });

  it("maps speed to its rate and pitch to its pitch scale, saying how much pitch it applied", async () => {
    const normal = espeakArguments({ rate: 170, pitch: 50 }, { language: "zh", speed: 1, pitch: 0 });
    expect(normal.args).toEqual(["-v", "cmn", "-s", "170", "-p", "50", "-b", "1", "--stdout"]);
    const fast = espeakArguments(
      { voice: "en-gb", variant: "f3", rate: 170, pitch: 90 },
      { language: "en", speed: 2, pitch: 6 },
    );
    // British English is the file "en": "-v en-gb+f3" would drop the variant
    expect(fast.args.slice(0, 6)).toEqual(["-v", "en+f3", "-s", "340", "-p", "99"]);
    expect(fast.pitchApplied).toBeCloseTo(1.5, 5); // 90 → 99: the rest is shifted afterwards
    const odd = espeakArguments({ voice: "cmn; rm -rf /", variant: "../x" }, { language: "zh", speed: 1, pitch: 0 });
    expect(odd.args.slice(0, 2)).toEqual(["-v", "cmn"]);
    const slower = await engine.synthesize(["今天天气很好，我们去公园散步吧。"], {
      language: "zh",
      params: {},
      speed: 0.6,
      pitch: 0,
    });
    const quicker = await engine.synthesize(["今天天气很好，我们去公园散步吧。"], {
      language: "zh",
      params: {},
      speed: 1.6,
      pitch: 0,
    });
    expect(secondsOf(slower.pieces[0]!)).toBeGreaterThan(1.8 * secondsOf(quicker.pieces[0]!));
  });

  it("not installed: a TtsEngineUnavailableError whose problem names the package", async () => {
    const missing = new EspeakEngine({ configured: "/nonexistent/espeak-ng" });
    const error = await missing.ready("zh").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TtsEngineUnavailableError);
    expect((error as TtsEngineUnavailableError).problem).toBe("espeak-missing");
    expect(TTS_PROBLEM_FIX["espeak-missing"]).toContain("apt-get install espeak-ng");
    expect(ttsProblemMessage("espeak-missing", "en")).toBe(
      "This voice cannot be used right now: choose another voice, try again later or contact the site administrator",
    );
  });
});

describe("espeak-ng in WebAssembly (a machine without the program)", () => {
  const savedPath = process.env.PATH;
  beforeAll(() => {
    process.env.PATH = "/nonexistent";
    forgetTools();
  });
  afterAll(() => {
    process.env.PATH = savedPath;
    forgetTools();
  });

  it("speaks Mandarin and English with the library's variants, rate and pitch", { timeout: 30_000 }, async () => {
    const engine = new EspeakEngine({});
    await engine.ready("zh");
    const zh = await engine.synthesize(["今天天气很好。", "", "我们去公园散步吧。"], {
      language: "zh",
      params: { voice: "cmn", variant: "f2", rate: 220, pitch: 72 },
      speed: 1,
      pitch: 0,
    });
    expect(zh.pieces).toHaveLength(3);
    expect(secondsOf(zh.pieces[1]!)).toBe(0);
    for (const piece of [zh.pieces[0]!, zh.pieces[2]!]) {
      expect(piece.sampleRate).toBe(22_050);
      expect(secondsOf(piece)).toBeGreaterThan(0.6);
      expect(peakOf(piece)).toBeGreaterThan(0.05);
    }
    const slow = await engine.synthesize(["Hello world, how are you today?"], {
      language: "en",
      params: { voice: "en-us", variant: "klatt3", rate: 160 },
      speed: 0.6,
      pitch: 0,
    });
    const fast = await engine.synthesize(["Hello world, how are you today?"], {
      language: "en",
      params: { voice: "en-us", rate: 160 },
      speed: 1.6,
      pitch: 0,
    });
    expect(secondsOf(slow.pieces[0]!)).toBeGreaterThan(1.8 * secondsOf(fast.pieces[0]!));
  });

  it("speaks every eSpeak voice of the library, the British ones too", { timeout: 30_000 }, async () => {
    const engine = new EspeakEngine({});
    const voices = libraryVoices.filter((v) => v.engine === "espeak-ng");
    expect(voices.some((v) => (v.params as { voice?: string }).voice === "en-gb")).toBe(true);
    for (const voice of voices) {
      const language = voice.language === "en" ? "en" : "zh";
      const { pieces } = await engine.synthesize([language === "en" ? "Good morning." : "早上好。"], {
        language,
        params: voice.params as Record<string, unknown>,
        speed: 1,
        pitch: 0,
      });
      expect(secondsOf(pieces[0]!), voice.slug).toBeGreaterThan(0.3);
    }
  });
});

describe("festival with the HTS voice (real)", () => {
  const engine = new FestivalEngine({ configured: "festival" });

  it("speaks English sentences in parallel batches; speed changes the rate", { timeout: 60_000 }, async () => {
    const texts = ["The weather is bright.", "We walk to the river.", "", "Then we go home."];
    const done: number[] = [];
    const normal = await engine.synthesize(texts, {
      language: "en",
      params: {},
      speed: 1,
      pitch: 0,
      onProgress: (n) => done.push(n),
    });
    expect(normal.pieces).toHaveLength(4);
    expect(secondsOf(normal.pieces[2]!)).toBe(0);
    for (const i of [0, 1, 3]) expect(peakOf(normal.pieces[i]!)).toBeGreaterThan(0.05);
    expect(Math.max(...done)).toBe(4);
    const fast = await engine.synthesize([texts[0]!], { language: "en", params: {}, speed: 1.5, pitch: 0 });
    expect(secondsOf(fast.pieces[0]!)).toBeLessThan(0.85 * secondsOf(normal.pieces[0]!));
    const deep = await engine.synthesize([texts[0]!], {
      language: "en",
      params: { pitch: -5, formant: "shifted" },
      speed: 1,
      pitch: 2,
    });
    expect(deep).toMatchObject({ voicePitch: -5, keepFormants: false, pitchApplied: 0 });
  });

  it("refuses Chinese (english-only) and says what to install when missing", async () => {
    await expect(engine.ready("zh")).rejects.toMatchObject({ problem: "english-only" });
    const missing = new FestivalEngine({ configured: "/nonexistent/festival" });
    await expect(missing.ready("en")).rejects.toMatchObject({ problem: "festival-missing" });
    expect(TTS_PROBLEM_FIX["festival-missing"]).toContain("apt-get install festival festvox-us-slt-hts");
    expect(ttsProblemMessage("festival-missing", "zh")).not.toMatch(/apt-get|festival/);
  });
});

describe("engine reports and the resolver", () => {
  it("reports every engine and language (kind tts); remote ones need their URL", () => {
    const reports = ttsEngineReports(BASE);
    expect(reports.map((r) => `${r.engine}/${r.language}:${r.available ? "ok" : r.problem}`)).toEqual([
      "espeak-ng/zh:ok",
      "espeak-ng/en:ok",
      "festival/en:ok",
      "openai-compatible/zh:openai-missing",
      "openai-compatible/en:openai-missing",
      "gpt-sovits/zh:gptsovits-missing",
      "gpt-sovits/en:gptsovits-missing",
    ]);
    expect(reports.every((r) => r.kind === "tts")).toBe(true);
    expect(ttsEngineMissing("festival", "zh", BASE)?.problem).toBe("english-only");
    const broken = ttsEngineReports({
      ...BASE,
      ESPEAK_NG_BIN: "/nonexistent/espeak",
      FESTIVAL_BIN: "/nonexistent/festival",
    });
    expect(broken.filter((r) => !r.available).map((r) => r.problem)).toContain("festival-missing");
    expect(broken.find((r) => r.engine === "espeak-ng")?.problem).toBe("espeak-missing");
  });

  it("the configured resolver refuses an engine that is not there before doing anything", async () => {
    const resolve = configuredTtsEngines({ ...BASE, FESTIVAL_BIN: "/nonexistent/festival" });
    await expect(
      resolve("festival").synthesize(["Hi."], { language: "en", params: {}, speed: 1, pitch: 0 }),
    ).rejects.toMatchObject({
      problem: "festival-missing",
    });
    expect(() => resolve("nope")).toThrow(TtsEngineUnavailableError);
  });
});

describe("openai-compatible engine (against a fake server)", () => {
  const server = new FakeSpeechServer();
  let url: string;
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());

  it("POSTs {model, input, voice, speed, response_format} to /v1/audio/speech per sentence, with the key", async () => {
    const engine = new OpenAiTtsEngine({ url: `${url}/v1/`, key: "sk-test", model: "tts-1" });
    const result = await engine.synthesize(["Hello there.", "General Kenobi."], {
      language: "en",
      params: { voice: "nova" },
      speed: 1.25,
      pitch: 3,
    });
    expect(result.pitchApplied).toBe(0);
    expect(result.pieces.map((p) => p.sampleRate)).toEqual([24_000, 24_000]);
    expect(secondsOf(result.pieces[0]!)).toBeCloseTo(0.3 + 12 * 0.05, 1);
    const first = server.received.find((r) => r.body.input === "Hello there.");
    expect(first).toMatchObject({
      path: "/v1/audio/speech",
      headers: { authorization: "Bearer sk-test" },
      body: { model: "tts-1", input: "Hello there.", voice: "nova", speed: 1.25, response_format: "wav" },
    });
  });

  it("decodes an MP3 answer; 401 is a configuration problem (not retried), 500 a passing one", {
    timeout: 20_000,
  }, async () => {
    const engine = new OpenAiTtsEngine({ url, model: "tts-1" });
    server.answer = "mp3";
    const mp3 = await engine.synthesize(["Twenty characters!!"], {
      language: "zh",
      params: { voice: "alloy", model: "kokoro" },
      speed: 1,
      pitch: 0,
    });
    expect(secondsOf(mp3.pieces[0]!)).toBeGreaterThan(1);
    expect(server.received.at(-1)?.body.model).toBe("kokoro");
    server.answer = "wav";
    server.status = 401;
    await expect(engine.synthesize(["x"], { language: "en", params: {}, speed: 1, pitch: 0 })).rejects.toMatchObject({
      problem: "server-refused",
    });
    server.status = 500;
    const error = await engine
      .synthesize(["x"], { language: "en", params: {}, speed: 1, pitch: 0 })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(TtsEngineUnavailableError);
    expect((error as Error).message).toContain("HTTP 500");
    server.status = 200;
  });

  it("not configured: openai-missing", async () => {
    await expect(new OpenAiTtsEngine({ model: "tts-1" }).ready("en")).rejects.toMatchObject({
      problem: "openai-missing",
    });
    expect(TTS_PROBLEM_FIX["openai-missing"]).toContain("OPENAI_TTS_URL");
    expect(ttsProblemMessage("openai-missing", "zh")).not.toContain("OPENAI");
  });
});

describe("GPT-SoVITS engine (against a fake server)", () => {
  const server = new FakeSpeechServer();
  let url: string;
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());

  it("POSTs the text with the reference clip to /tts, from the voice's params or the configuration", async () => {
    const engine = new GptSovitsEngine({ url, refAudio: "ref/default.wav", promptText: "默认参考", promptLang: "zh" });
    const result = await engine.synthesize(["你好，世界。"], { language: "zh", params: {}, speed: 0.9, pitch: 0 });
    expect(result.pieces).toHaveLength(1);
    expect(server.received.at(-1)).toMatchObject({
      path: "/tts",
      body: {
        text: "你好，世界。",
        text_lang: "zh",
        ref_audio_path: "ref/default.wav",
        prompt_text: "默认参考",
        prompt_lang: "zh",
        speed_factor: 0.9,
        media_type: "wav",
        streaming_mode: false,
      },
    });
    await engine.synthesize(["Hello."], {
      language: "en",
      params: { refAudio: "ref/alice.wav", promptText: "I am Alice.", promptLang: "en" },
      speed: 1,
      pitch: 0,
    });
    expect(server.received.at(-1)?.body).toMatchObject({
      ref_audio_path: "ref/alice.wav",
      prompt_lang: "en",
      text_lang: "en",
    });
  });

  it("without a server or a reference clip it says which setting is missing", async () => {
    await expect(new GptSovitsEngine({ promptLang: "zh" }).ready("zh")).rejects.toMatchObject({
      problem: "gptsovits-missing",
    });
    await expect(new GptSovitsEngine({ url, promptLang: "zh" }).ready("zh")).rejects.toMatchObject({
      problem: "gptsovits-reference-missing",
    });
    expect(TTS_PROBLEM_FIX["gptsovits-reference-missing"]).toContain("GPTSOVITS_REF_AUDIO");
  });
});
