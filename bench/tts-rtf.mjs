// `node bench/tts-rtf.mjs [--chars 500] [--runs 3] [--no-server]`: text to speech on this machine.
// 1. Synthesis real-time factor (processing time ÷ audio time; below 1 is faster than real time) of
//    every TTS engine available here, on ~N characters of Chinese and of English, through the worker's
//    whole pipeline (normalise, split, synthesise, join, level, encode MP3), with the engine's own share.
// 2. Time from `POST /tts/start_tts` to a playable file (get_progress says 2 and the MP3 downloads)
//    for N characters through the real server and worker, per language's default voice (goal < 3 s).
// Uses DATABASE_URL/REDIS_URL when set (API and a separate worker process), else `npm start`'s embedded mode.
import os from "node:os";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { signIn, startYuelu, waitFor } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: {
    chars: { type: "string", default: "500" },
    runs: { type: "string", default: "3" },
    "no-server": { type: "boolean", default: false },
  },
});
const chars = Number(values.chars);
const runs = Number(values.runs);

register();
const { loadConfig } = await import("../packages/runtime/src/config.ts");
const { configuredTtsEngines, ttsEngineMissing } = await import("../apps/worker/src/engines/tts/factory.ts");
const { renderSpeech } = await import("../apps/worker/src/speech/render-speech.ts");
const { speechPieces } = await import("../apps/worker/src/speech/tts-text.ts");

const ZH =
  "今天是2024年3月5日，天气晴朗，气温在15℃到25℃之间。上午10:30，我们在图书馆门口集合，然后一起去公园散步。" +
  "公园里的花开得正好，很多人在湖边拍照、聊天。下午三点，大家回到会议室，讨论下个季度的预算：研发投入增长了3.5%，差旅费用减少了两成。" +
  "会议结束后，主持人提醒大家按时提交报告，并祝大家周末愉快。";
const EN =
  "On March 5, 2024, the weather was bright and clear, with temperatures between 15 and 25°C. At 10:30 we met at the library " +
  "and walked to the park together. The flowers were in full bloom, and many people were taking photos by the lake. " +
  "At three in the afternoon we returned to the meeting room to discuss next quarter's budget: research spending grew by 3.5%, " +
  "while travel costs fell by a fifth. After the meeting, the chair reminded everyone to hand in their reports on time. ";

/** About `n` characters of `source`, cut at a sentence end. */
function textOf(source, n) {
  let text = "";
  while ([...text].length < n) text += source;
  const cut = [...text].slice(0, n).join("");
  const end = Math.max(cut.lastIndexOf("。"), cut.lastIndexOf(". "));
  return end > n * 0.8 ? cut.slice(0, end + 1) : cut;
}
const texts = { zh: textOf(ZH, chars), en: textOf(EN, chars) };

const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
const tts = configuredTtsEngines(config);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

console.log(
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ${chars} characters per text (zh ${[...texts.zh].length}, en ${[...texts.en].length}), median of ${runs} runs\n`,
);

// ── 1. real-time factor per engine ──
const cases = [
  ["espeak-ng", "zh", "cmn (云峰)", { voice: "cmn", variant: "m1", rate: 240, pitch: 42 }],
  ["espeak-ng", "en", "en-us (Mike)", { voice: "en-us", variant: "m1", rate: 165, pitch: 42 }],
  ["festival", "en", "slt HTS (Sarah)", { rate: 1 }],
  ["festival", "en", "slt HTS shifted (David)", { rate: 0.95, pitch: -6, formant: "shifted" }],
  ["openai-compatible", "en", "OPENAI_TTS_URL", { voice: "alloy" }],
  ["gpt-sovits", "zh", "GPTSOVITS_URL", {}],
];
const rows = [];
for (const [engine, language, voice, params] of cases) {
  const missing = ttsEngineMissing(engine, language, config);
  if (missing) {
    rows.push([engine, language, voice, "—", "—", "—", "—", `not available: ${missing.detail}`]);
    continue;
  }
  try {
    const walls = [];
    const engineMs = [];
    let audioMs = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const out = await renderSpeech(tts(engine), {
        text: texts[language],
        language,
        params,
        speed: 1,
        pitch: 0,
        volume: 1,
        format: "mp3",
      });
      walls.push(performance.now() - t0);
      engineMs.push(out.stages.synthesisMs);
      audioMs = out.durationMs;
    }
    const wall = median(walls);
    rows.push([
      engine,
      language,
      voice,
      (wall / audioMs).toFixed(3),
      (median(engineMs) / audioMs || 0).toFixed(3),
      s(wall),
      s(audioMs),
      `${speechPieces(texts[language], language).length} sentences`,
    ]);
  } catch (error) {
    rows.push([engine, language, voice, "—", "—", "—", "—", `failed: ${error.message}`]);
  }
}
const header = ["engine", "lang", "voice", "RTF (pipeline)", "RTF (engine)", "time", "audio", "note"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
console.log(
  "\nRTF (pipeline) = normalise + split + synthesise + join + level + MP3 ÷ audio length; RTF (engine) = the engine's share.\n",
);

// ── 2. start_tts → a playable file, through the real server ──
if (!values["no-server"]) {
  const server = await startYuelu({ name: "tts", port: 8094, env: { ASR_AUTO_FETCH: "false", LOG_LEVEL: "warn" } });
  try {
    const { api, cookie } = await signIn(server.base, "13900000094");
    // The worker is up when its heartbeat lists the TTS engines (the library answers available).
    await waitFor(
      "a worker with TTS engines",
      async () => (await api("GET", "/new_tts/labs/get_sound_list?pageSize=1")).list[0]?.available,
      120_000,
    );
    const options = await api("GET", "/new_tts/labs/select_options");
    console.log(server.setup);
    for (const language of ["zh", "en"]) {
      const times = [];
      let audio = 0;
      let bytes = 0;
      for (let i = 0; i <= runs; i++) {
        const t0 = performance.now();
        const task = await api("POST", "/tts/start_tts", {
          text: texts[language],
          promptId: options.defaults[language],
        });
        // Poll as a page would, but every 50 ms (the web polls every TTS_POLL_MS = 1 s).
        let done;
        while (!done) {
          const [p] = await api("GET", `/tts/get_progress?taskIds=${task.taskId}`);
          if (p.status === 2 || p.status === -1) done = p;
          else if (performance.now() - t0 > 120_000) throw new Error("the synthesis took over 2 minutes");
          else await new Promise((r) => setTimeout(r, 50));
        }
        if (done.status === -1) throw new Error(`synthesis failed: ${done.errorMsg}`);
        const file = await fetch(`${server.base}${done.audioUrl}`, { headers: { cookie } });
        const body = Buffer.from(await file.arrayBuffer());
        if (!file.ok || body.length === 0) throw new Error(`download failed: ${file.status}`);
        const ms = performance.now() - t0;
        if (i > 0) times.push(ms); // the first run warms the worker up (festival's voice, ffmpeg)
        audio = done.durationMs;
        bytes = body.length;
      }
      console.log(
        `start_tts → playable file, ${language} (${[...texts[language]].length} characters, voice ${options.defaults[language]}): ` +
          `median ${s(median(times))} (runs ${times.map(s).join(", ")}), ${s(audio)} of audio, MP3 ${(bytes / 1024).toFixed(0)} KiB` +
          `${median(times) < 3000 ? "  ✓ < 3 s" : "  ✗ goal 3 s"}`,
      );
    }
  } finally {
    await server.stop();
  }
}
process.exit(0);
