import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_RATE } from "../../apps/worker/src/audio/pcm.ts";
import { OpenAiAsrEngine } from "../../apps/worker/src/engines/asr/openai.ts";
import { AsrEngineUnavailableError } from "../../apps/worker/src/engines/asr/types.ts";

interface Received {
  path: string;
  authorization?: string;
  fields: Record<string, string[]>;
  file?: { name: string; type: string; bytes: number; sampleRate: number };
}

/**
 * Test double of an OpenAI-compatible transcription server (named as a fake): records each multipart
 * request and answers verbose_json with one segment per clip and two words.
 */
class FakeTranscriptionServer {
  readonly received: Received[] = [];
  status = 200;
  private server: Server = createServer((req, res) => {
    void this.handle(req).then(
      (body) => {
        res.writeHead(this.status, { "content-type": "application/json" });
        res.end(JSON.stringify(this.status === 200 ? body : { error: { message: "nope" } }));
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

  private async handle(req: IncomingMessage) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = await new Response(Buffer.concat(chunks), {
      headers: { "content-type": req.headers["content-type"] ?? "" },
    }).formData();
    const fields: Record<string, string[]> = {};
    let file: Received["file"];
    for (const [key, value] of form.entries()) {
      if (typeof value === "string") {
        fields[key] = [...(fields[key] ?? []), value];
      } else {
        const bytes = Buffer.from(await value.arrayBuffer());
        file = { name: value.name, type: value.type, bytes: bytes.length, sampleRate: bytes.readUInt32LE(24) };
      }
    }
    this.received.push({ path: req.url ?? "", authorization: req.headers.authorization, fields, file });
    const seconds = file ? (file.bytes - 44) / 2 / SAMPLE_RATE : 0;
    return {
      task: "transcribe",
      language: "english",
      duration: seconds,
      text: "hello there world",
      segments: [{ id: 0, start: 0.1, end: Math.min(seconds, 1.5), text: " hello there world" }],
      words: [
        { word: "hello", start: 0.1, end: 0.5 },
        { word: "there", start: 0.6, end: 0.9 },
      ],
    };
  }
}

const tone = (seconds: number) => {
  const pcm = new Float32Array(SAMPLE_RATE * seconds);
  for (let i = 0; i < pcm.length; i++) pcm[i] = 0.3 * Math.sin((2 * Math.PI * 220 * i) / SAMPLE_RATE);
  return pcm;
};

let fake: FakeTranscriptionServer;
let url: string;
beforeAll(async () => {
  fake = new FakeTranscriptionServer();
  url = await fake.start();
});
afterAll(() => fake.stop());

describe("openai-compatible engine", () => {
  it("POSTs multipart WAV with model, language, hot-word prompt and verbose_json timestamps", async () => {
    const engine = new OpenAiAsrEngine({ url: `${url}/v1/`, key: "secret-key", model: "whisper-large-v3" });
    // two speech regions 10 s apart: one clip, the pause shortened; times map back to the recording
    const audio = new Float32Array(SAMPLE_RATE * 14);
    audio.set(tone(2), SAMPLE_RATE * 1);
    audio.set(tone(2), SAMPLE_RATE * 11);
    const result = await engine.transcribe(audio, {
      language: "zh",
      hotWords: ["悦录", "转写"],
      regions: [
        { startMs: 1000, endMs: 3000 },
        { startMs: 11_000, endMs: 13_000 },
      ],
    });
    expect(fake.received).toHaveLength(1);
    const got = fake.received[0]!;
    expect(got.path).toBe("/v1/audio/transcriptions");
    expect(got.authorization).toBe("Bearer secret-key");
    expect(got.fields).toMatchObject({
      model: ["whisper-large-v3"],
      language: ["zh"],
      prompt: ["悦录、转写"],
      response_format: ["verbose_json"],
      "timestamp_granularities[]": ["segment", "word"],
    });
    expect(got.file).toMatchObject({ name: "audio.wav", type: "audio/wav", sampleRate: 16_000 });
    // 2 s + 0.6 s kept pause + 2 s of 16-bit samples
    expect(got.file?.bytes).toBe(44 + 2 * SAMPLE_RATE * 4.6);
    // the server said "english": its answer wins over the requested language
    expect(result.language).toBe("en");
    expect(result.segments).toEqual([
      {
        startMs: 1100,
        endMs: 2500,
        text: "hello there world",
        words: [
          { startMs: 1100, endMs: 1500, text: "hello" },
          { startMs: 1600, endMs: 1900, text: "there" },
        ],
      },
    ]);
  });

  it("leaves language out for auto and sends no prompt without hot words", async () => {
    const engine = new OpenAiAsrEngine({ url, model: "m" });
    await engine.transcribe(tone(2), { language: "auto", regions: [{ startMs: 0, endMs: 2000 }] });
    const got = fake.received.at(-1)!;
    expect(got.fields.language).toBeUndefined();
    expect(got.fields.prompt).toBeUndefined();
    expect(got.authorization).toBeUndefined();
  });

  it("a refused key is a 70001 configuration error; a server error is a plain (retryable) error", async () => {
    const engine = new OpenAiAsrEngine({ url, key: "bad", model: "m" });
    const regions = [{ startMs: 0, endMs: 2000 }];
    fake.status = 401;
    const refused = await engine.transcribe(tone(2), { language: "en", regions }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AsrEngineUnavailableError);
    expect((refused as Error).message).toMatch(/HTTP 401.*OPENAI_ASR_KEY/);
    fake.status = 500;
    const failed = await engine.transcribe(tone(2), { language: "en", regions }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(AsrEngineUnavailableError);
    expect((failed as Error).message).toMatch(/HTTP 500/);
    fake.status = 200;
  });

  it("without OPENAI_ASR_URL it is unavailable (70001) and names the setting", async () => {
    const engine = new OpenAiAsrEngine({ model: "m" });
    const error = await engine.transcribe(tone(1), { language: "en" }).catch((e: unknown) => e);
    expect((error as AsrEngineUnavailableError).code).toBe(70001);
    expect((error as Error).message).toMatch(/OPENAI_ASR_URL/);
  });

  it("an unreachable server is a plain error naming the URL", async () => {
    const engine = new OpenAiAsrEngine({ url: "http://127.0.0.1:9", model: "m" });
    const error = await engine
      .transcribe(tone(2), { language: "en", regions: [{ startMs: 0, endMs: 2000 }] })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/could not be reached/);
  });
});
