import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, signInOverHttp } from "../helpers/client.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/**
 * The README's promise on a machine with nothing but Node: `npm start` with PATH holding only the
 * node binary (no ffmpeg, ffprobe, sox, espeak-ng, festival, compiler — whatever this machine has
 * installed elsewhere). Uploads are probed and decoded by the ffmpeg/ffprobe that npm ships, English
 * is transcribed by moonshine, and text to speech speaks Chinese and English through eSpeak NG in
 * WebAssembly; /readyz names each fallback. Real speech: whisper.cpp's JFK sample (in npm).
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const port = 19_000 + (process.pid % 1000);
const base = `http://127.0.0.1:${port}`;
const require = createRequire(import.meta.url);
/** the bundled tools, used here only to make and check test media */
const bundledFfmpeg = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
const bundledFfprobe = (require("@ffprobe-installer/ffprobe") as { path: string }).path;
const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const JFK_TEXT =
  "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.";

let child: ChildProcess;
let dir: string;
let output = "";
let client: ApiClient;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output.slice(-3000)}`);
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await sleep(300);
  }
  throw new Error(`timed out waiting for ${what}:\n${output.slice(-3000)}`);
}

async function readyz(): Promise<Json> {
  return (await fetch(`${base}/readyz`)).json();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-bare-"));
  const bin = path.join(dir, "bin");
  await mkdir(bin);
  await symlink(process.execPath, path.join(bin, "node"));
  const env: NodeJS.ProcessEnv = {
    PATH: bin,
    HOME: dir,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(dir, "data"),
    LOG_LEVEL: "info",
    // the web app is not what this test is about (building it needs npm on PATH)
    WEB_DIST: path.join(dir, "no-web"),
    ASR_AUTO_FETCH: "false",
  };
  child = spawn(process.execPath, ["scripts/start.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  await until("a ready server with a live worker", async () => {
    const r = await readyz();
    return r.status === "ready" && r.workers.live > 0 && r.workers.list[0].tools.length > 0 ? r : undefined;
  });
  client = await signInOverHttp(base, "13600000777");
}, 150_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(30_000)]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  await rm(dir, { recursive: true, force: true });
});

async function upload(file: string, name: string): Promise<number> {
  const form = new FormData();
  form.append("file", new Blob([await readFile(file)]), name);
  const uploaded = await client.api<{ fileId: number; timeLen: number }>("POST", "/api/v1/audio/upload", form);
  expect(uploaded.timeLen).toBe(11);
  return uploaded.fileId;
}

async function transcript(fileId: number): Promise<string> {
  await until(
    `the transcript of ${fileId}`,
    async () => {
      const [p] = await client.api<Json[]>("GET", `/api/v1/dictation/progress/get_progress?fileIds=${fileId}`);
      if (p.fileStatus === -1) throw new Error(`transcription failed: ${p.errorMsg}`);
      return p.fileStatus === 2 ? p : undefined;
    },
    120_000,
  );
  const text = await client.api<Json>("GET", `/api/v2/audio/text/get_text?fileId=${fileId}`);
  return (JSON.parse(text.asrResult) as { text: string }[]).map((s) => s.text).join(" ");
}

/** Synthesises `text`, waits for it, and answers the downloaded file. */
async function speak(text: string, format: "mp3" | "wav"): Promise<string> {
  const task = await client.api<Json>("POST", "/tts/start_tts", { text, format });
  await until(
    `speech task ${task.taskId}`,
    async () => {
      const [p] = await client.api<Json[]>("GET", `/tts/get_progress?taskIds=${task.taskId}`);
      if (p.status === -1) throw new Error(`synthesis failed: ${p.errorMsg}`);
      return p.status === 2 ? p : undefined;
    },
    60_000,
  );
  const res = await fetch(`${base}/voice_yuelu/tts/download?taskId=${task.taskId}`, {
    headers: { cookie: client.cookie },
  });
  expect(res.status).toBe(200);
  const file = path.join(dir, `tts-${task.taskId}.${format}`);
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** Duration (s) and loudness (RMS of 16-bit samples) of an audio file, read with the bundled tools. */
async function listen(file: string): Promise<{ seconds: number; rms: number }> {
  const { stdout } = await run(bundledFfprobe, [
    "-v",
    "error",
    "-show_entries",
    "format=duration",
    "-of",
    "csv=p=0",
    file,
  ]);
  const pcm = (
    await run(bundledFfmpeg, ["-v", "error", "-i", file, "-ac", "1", "-ar", "16000", "-f", "s16le", "pipe:1"], {
      encoding: "buffer",
      maxBuffer: 64 << 20,
    })
  ).stdout as Buffer;
  let sum = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) sum += pcm.readInt16LE(i) ** 2;
  return { seconds: Number(stdout), rms: Math.sqrt(sum / Math.max(1, pcm.length / 2)) };
}

describe("npm start on a machine whose PATH holds only node", () => {
  it("names its fallbacks: bundled ffmpeg/ffprobe, eSpeak NG in WebAssembly, festival missing with what to install", async () => {
    const r = await readyz();
    expect(r.api.tools.find((t: Json) => t.name === "ffprobe")).toMatchObject({ available: true, source: "bundled" });
    const tools = Object.fromEntries(r.workers.list[0].tools.map((t: Json) => [t.name, t]));
    expect(tools.ffmpeg).toMatchObject({ available: true, source: "bundled", kind: "program" });
    expect(tools.ffmpeg.path).toContain("@ffmpeg-installer");
    expect(tools.ffprobe).toMatchObject({ available: true, source: "bundled" });
    expect(tools["espeak-ng"]).toMatchObject({ available: true, source: "bundled", kind: "wasm" });
    expect(tools.festival).toMatchObject({ available: false });
    expect(tools.festival.install).toContain("apt-get install festival");
    expect(output).toMatch(/worker tools: ffmpeg: bundled .*espeak-ng: bundled WebAssembly/);
  });

  it("transcribes real English speech uploaded as mp3 and as mp4", async () => {
    const mp4 = path.join(dir, "jfk.mp4");
    await run(bundledFfmpeg, [
      ...["-v", "error", "-f", "lavfi", "-i", "color=c=navy:s=320x240:r=10:d=11", "-i", JFK_MP3],
      ...["-shortest", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", mp4],
    ]);
    const ids = [await upload(JFK_MP3, "jfk.mp3"), await upload(mp4, "jfk.mp4")];
    await client.api("POST", "/api/v2/dictation/audio/dictation_batch", {
      fileIds: ids.join(","),
      dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
    });
    for (const id of ids) {
      const text = await transcript(id);
      expect(wordErrorRate(JFK_TEXT, text).wer, text).toBeLessThanOrEqual(0.15);
    }
  }, 180_000);

  it("transcribes the containers phones and browsers make (issue 29): webm, weba, ogg, oga, opus, flac, aiff, caf", async () => {
    const made: Record<string, string[]> = {
      // a browser recording: Opus at 12 kbit/s in WebM; a WhatsApp voice note: 16 kHz Opus in Ogg
      webm: ["-c:a", "libopus", "-b:a", "12k", "-f", "webm"],
      weba: ["-c:a", "libopus", "-b:a", "24k", "-f", "webm"],
      ogg: ["-c:a", "libvorbis", "-f", "ogg"],
      oga: ["-c:a", "libopus", "-f", "ogg"],
      opus: ["-ar", "16000", "-ac", "1", "-c:a", "libopus", "-b:a", "16k", "-f", "ogg"],
      flac: ["-c:a", "flac"],
      aiff: ["-c:a", "pcm_s16be", "-f", "aiff"],
      caf: ["-c:a", "alac", "-f", "caf"],
    };
    const ids: Record<string, number> = {};
    for (const [ext, codec] of Object.entries(made)) {
      const file = path.join(dir, `jfk.${ext}`);
      await run(bundledFfmpeg, ["-v", "error", "-i", JFK_MP3, ...codec, file]);
      ids[ext] = await upload(file, `jfk.${ext}`);
    }
    await client.api("POST", "/api/v2/dictation/audio/dictation_batch", {
      fileIds: Object.values(ids).join(","),
      dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
    });
    const wer: Record<string, number> = {};
    for (const [ext, id] of Object.entries(ids)) wer[ext] = wordErrorRate(JFK_TEXT, await transcript(id)).wer;
    for (const [ext, value] of Object.entries(wer))
      expect(value, `${ext}: ${JSON.stringify(wer)}`).toBeLessThanOrEqual(0.15);
  }, 300_000);

  it("speaks Chinese and English (playable audio) and the English transcribes back", async () => {
    const zh = await listen(await speak("今天天气很好，我们一起去公园散步吧。", "mp3"));
    expect(zh.seconds).toBeGreaterThan(1.5);
    expect(zh.rms).toBeGreaterThan(500);

    const sentence = "Please send the report to every member of the team before Friday.";
    const enFile = await speak(sentence, "wav");
    const en = await listen(enFile);
    expect(en.seconds).toBeGreaterThan(1.5);
    expect(en.rms).toBeGreaterThan(500);
    const form = new FormData();
    form.append("file", new Blob([await readFile(enFile)]), "spoken.wav");
    const { fileId } = await client.api<{ fileId: number }>("POST", "/api/v1/audio/upload", form);
    await client.api("POST", "/api/v2/dictation/audio/dictation", {
      fileId,
      dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
    });
    const heard = await transcript(fileId);
    // eSpeak NG is robotic: most of its words come back, not all
    expect(wordErrorRate(sentence, heard).wer, heard).toBeLessThanOrEqual(0.35);
  }, 120_000);
});
