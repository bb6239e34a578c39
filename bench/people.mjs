// `node bench/people.mjs [--seeds 3] [--sweep] [--parts 1,2,3] [--seconds 4,8,15] [--count estimated,given]`: speakers recognised across recordings (issue 45 item 4,
// docs/people.md) on real human voices: how often a known voice is named right in a new recording (goal ≥ 90 %),
// and how often a voice nobody named gets a known name (goal ≤ 5 %). The product's code throughout: the
// worker's voiceprints (apps/worker/src/speech/speaker-prints.ts), diarization (speech/diarize.ts) and the
// domain's matching rule and thresholds (packages/domain/src/people/prints.ts).
//
// Voices (Debian packages; each missing one is skipped, and said so):
//   pocketsphinx-testdata  LibriVox reader, the "cards" speaker, the "go forward / numbers / something" speaker
//   alsa-utils' sounds     the channel-test voice ("Front left"…)
//   whisper.cpp's jfk.wav  (node_modules/nodejs-whisper)
//   ktuberling-data        one recorded voice per language (words), sessions recorded years apart (the
//                          game's themes): de el gl lt sl uk wa nn ru(egypt/moon/pizzeria) and the short sets
//                          es fi ga it nl ro sr sv. Folders that hold several people (ca da en fr pt nds, ru's
//                          other themes) are left out: their speaker is not known.
//   apt-get install -y pocketsphinx-testdata ktuberling-data
//
// 1. Voices: every voice's speech cut into "recordings" from different sessions, each through a different channel
//    (gain −12…+6 dB, a first-order tilt filter, noise at 20–35 dB SNR: a different room and microphone). Every
//    voice with two recordings is named from its first, so the user's account knows ~10 people at once; then:
//    known — each later recording of a named voice: named right (that person, and only it);
//    unknown — each recording of a voice left out of the account (every voice in turn): given any known name.
// 2. Recordings: the checker's case end to end (minus recognition): a first recording with voices A and B taking
//    turns, both named by the user; two more with A, B and a voice C never named, each diarized by the product
//    (speaker count estimated), printed and matched. A known voice counts as named right when the speaker holding
//    most of its speech carries its name; C counts as named when most of its speech carries any known name.
//    Then one more without B: A with two voices C and D never named (a known person absent, two unknown voices
//    present: neither may be named). `--count estimated|given` runs one of the two ways (default both).
// 3. One voice alone: every voice's speech (up to 60 s) as one recording, diarized with the count estimated: it
//    must come out as one speaker (diarization must not split a voice to tell voices apart).
// 4. Words, clean (`--parts 4`, not run by default): ktuberling's seven voices as recorded, each alone (one speaker
//    expected) and every two taking turns (two expected), 16 words at a time from four places in each folder.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const root = path.resolve(import.meta.dirname, "..");
const { programPath } = await import("../packages/runtime/src/index.ts");
const { pcmFrom } = await import("../apps/worker/src/audio/pcm.ts");
const { energyProfile } = await import("../apps/worker/src/audio/vad.ts");
const { diarize } = await import("../apps/worker/src/speech/diarize.ts");
const { speakerVoices, mfccGaussEmbedder } = await import("../apps/worker/src/speech/speaker-prints.ts");
const prints = await import("../packages/domain/src/people/prints.ts");
const { followKnownVoices } = await import("../apps/worker/src/speech/known-speakers.ts");
const { recording, saidTogether } = await import("../tests/helpers/real-voices.ts");

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const SEEDS = Number(arg("seeds", "3"));
const SWEEP = process.argv.includes("--sweep");
const PARTS = arg("parts", "1,2,3").split(",");
const RATE = 16_000;
const ffmpeg = programPath("ffmpeg");

function decode(file, raw = false) {
  const input = raw ? ["-f", "s16le", "-ar", "16000", "-ac", "1", "-i", file] : ["-i", file];
  const out = execFileSync(ffmpeg, ["-v", "error", ...input, "-ac", "1", "-ar", "16000", "-f", "f32le", "-"], {
    maxBuffer: 1 << 28,
  });
  return new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4).slice();
}

// ── the voices ──────────────────────────────────────────────────────────────────────────────────────────────
/** voice → sessions (each a list of utterances) */
const voices = new Map();
const missing = [];
const PS = "/usr/share/pocketsphinx/test/data";
if (existsSync(PS)) {
  const wavs = (dir) =>
    readdirSync(path.join(PS, dir))
      .filter((f) => f.endsWith(".wav"))
      .sort()
      .map((f) => decode(path.join(PS, dir, f)));
  const libri = wavs("librivox");
  voices.set("librivox", [libri.slice(0, 2), libri.slice(2, 3), libri.slice(3)]);
  voices.set("cards", [wavs("cards")]);
  voices.set("goforward", [
    ["goforward.raw", "numbers.raw", "something.raw"].map((f) => decode(path.join(PS, f), true)),
  ]);
} else missing.push("pocketsphinx-testdata");
const ALSA = "/usr/share/sounds/alsa";
if (existsSync(ALSA)) {
  const clips = readdirSync(ALSA)
    .filter((f) => f.endsWith(".wav") && f !== "Noise.wav")
    .sort()
    .map((f) => decode(path.join(ALSA, f)));
  voices.set("alsa", [clips]);
} else missing.push("alsa-utils sounds");
const JFK = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/bindings/go/samples/jfk.wav");
if (existsSync(JFK)) {
  const j = decode(JFK);
  voices.set("jfk", [[j.slice(0, j.length / 2)], [j.slice(j.length / 2)]]);
} else missing.push("jfk.wav");
const KT = "/usr/share/ktuberling/sounds";
const THEMES = ["egypt", "moon", "pizzeria", "pizza", "tv", "xmas", "butterflies", "robot", "tux", "say"];
const themeOf = (file) => {
  const t = THEMES.find((x) => file.toLowerCase().startsWith(x)) ?? "base";
  return t === "pizza" ? "pizzeria" : t === "say" ? "tux" : t;
};
if (existsSync(KT)) {
  const one = {
    de: 0,
    el: 0,
    gl: 0,
    lt: 0,
    sl: 0,
    uk: 0,
    wa: 0,
    nn: 0,
    es: 0,
    fi: 0,
    ga: 0,
    it: 0,
    nl: 0,
    ro: 0,
    sr: 0,
    sv: 0,
  };
  const groups = {
    ...Object.fromEntries(Object.keys(one).map((l) => [l, [l, null]])),
    ru: ["ru", ["egypt", "moon", "pizzeria"]],
  };
  for (const [name, [lang, themes]] of Object.entries(groups)) {
    const dir = path.join(KT, lang);
    if (!existsSync(dir)) continue;
    const sessions = new Map();
    for (const f of readdirSync(dir).sort()) {
      const theme = themeOf(f);
      if (themes && !themes.includes(theme)) continue;
      if (!sessions.has(theme)) sessions.set(theme, []);
      sessions.get(theme).push(decode(path.join(dir, f)));
    }
    voices.set(`kt-${name}`, [...sessions.values()]);
  }
} else missing.push("ktuberling-data");

// ── recordings ──────────────────────────────────────────────────────────────────────────────────────────────
let seed = 1;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
/** the speech frames (energy profile of the clip alone) of a clip, in seconds */
const spoken = new WeakMap();
const speechSeconds = (clip) => {
  if (!spoken.has(clip)) {
    const p = energyProfile(pcmFrom(clip));
    spoken.set(clip, p.db.filter((d) => d >= p.threshold).length / 100);
  }
  return spoken.get(clip);
};

/** Lays `turns` (each: voice and utterances) one after another with pauses; a channel over the whole. */
function record(turns) {
  const gap = () => Math.round(RATE * (0.7 + 0.4 * rnd()));
  const pieces = [];
  let at = gap();
  const segments = [];
  for (const turn of turns) {
    const startMs = (at / RATE) * 1000;
    for (const [i, u] of turn.utterances.entries()) {
      pieces.push([at, u]);
      at += u.length + (i < turn.utterances.length - 1 ? Math.round(RATE * 0.15) : 0);
    }
    segments.push({ startMs, endMs: (at / RATE) * 1000, voice: turn.voice });
    at += gap();
  }
  const out = new Float32Array(at);
  for (const [o, u] of pieces) out.set(u, o);
  // the channel: level, microphone/room colour, noise
  const g = 10 ** ((rnd() * 18 - 12) / 20);
  const tilt = rnd() * 0.8 - 0.4;
  const snr = 20 + rnd() * 15;
  let power = 0;
  for (const x of out) power += x * x;
  const noise = Math.sqrt(power / out.length / 10 ** (snr / 10)) * 0.5;
  let prev = 0;
  for (let i = 0; i < out.length; i++) {
    const x = out[i];
    out[i] = g * (x + tilt * prev + noise * gauss());
    prev = x;
  }
  return { pcm: pcmFrom(out), segments };
}

const shuffle = (xs) =>
  xs
    .map((x) => [rnd(), x])
    .sort((a, b) => a[0] - b[0])
    .map(([, x]) => x);

/**
 * A voice's utterances as recordings of about `seconds` of speech each, from one session at a time (a session
 * too long for one gives several; what is left over under half the target is dropped).
 */
function chunks(voice, seconds) {
  const out = [];
  for (const session of voices.get(voice)) {
    let cur = [];
    let secs = 0;
    for (const u of session) {
      cur.push(u);
      secs += speechSeconds(u);
      if (secs >= seconds) {
        out.push(cur);
        cur = [];
        secs = 0;
      }
    }
    if (secs >= seconds / 2) out.push(cur);
  }
  return out;
}

/** One voice's recording alone: its print (the whole recording is that speaker). */
function printOf(utterances) {
  const { pcm, segments } = record([{ voice: "x", utterances }]);
  const profile = energyProfile(pcm);
  return speakerVoices(pcm, segments, [0], profile, mfccGaussEmbedder)[0] ?? null;
}

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)} %` : "–");

// ── 1. voices ───────────────────────────────────────────────────────────────────────────────────────────────
function partVoices(seconds) {
  const enrolled = new Map(); // voice → print
  const tests = []; // {voice, print}
  for (const voice of voices.keys()) {
    const rec = shuffle(chunks(voice, seconds));
    const ps = rec.map(printOf).filter(Boolean);
    if (ps.length >= 2) enrolled.set(voice, ps[0]);
    for (const p of ps.length >= 2 ? ps.slice(1) : ps) tests.push({ voice, print: p });
  }
  const people = [...enrolled].map(([voice, p]) => ({ id: voice, model: p.model, centroid: p.vector }));
  const known = { right: 0, wrong: 0, unnamed: 0, short: 0, n: 0 };
  const unknown = { named: 0, n: 0, short: 0 };
  const scores = { target: [], impostor: [] };
  for (const t of tests) {
    const speaker = { ...t.print, speaker: 0 };
    for (const p of people) {
      const s = prints.printSimilarity(p.model, speaker.vector, p.centroid);
      (p.id === t.voice ? scores.target : scores.impostor).push({ s, ms: speaker.speechMs });
    }
    if (enrolled.has(t.voice)) {
      known.n++;
      if (speaker.speechMs < prints.MIN_MATCH_SPEECH_MS) known.short++;
      const m = prints.matchSpeakers([speaker], people).get(0);
      if (!m) known.unnamed++;
      else if (m.personId === t.voice) known.right++;
      else known.wrong++;
    }
    // the same recording as an unknown voice: the account knows everyone but this voice
    unknown.n++;
    if (speaker.speechMs < prints.MIN_MATCH_SPEECH_MS) unknown.short++;
    const others = people.filter((p) => p.id !== t.voice);
    if (prints.matchSpeakers([speaker], others).get(0)) unknown.named++;
  }
  return { known, unknown, scores, people: people.length, voices: voices.size };
}

// ── 2. recordings ───────────────────────────────────────────────────────────────────────────────────────────
/** the turns of a recording: each voice's utterances in turns of 3–6 words, interleaved */
function turnsOf(parts) {
  const queues = parts.map(({ voice, utterances }) => {
    const turns = [];
    let i = 0;
    while (i < utterances.length) {
      const n = 3 + Math.floor(rnd() * 4);
      turns.push({ voice, utterances: utterances.slice(i, i + n) });
      i += n;
    }
    return turns;
  });
  const out = [];
  while (queues.some((q) => q.length)) {
    for (const q of shuffle(queues)) if (q.length) out.push(q.shift());
  }
  return out;
}

function diarized(parts, given, people = []) {
  const { pcm, segments } = record(turnsOf(parts));
  const profile = energyProfile(pcm);
  const dia = diarize(pcm, segments, {
    profile,
    ...(given ? { speakerCount: parts.length } : {}),
  });
  return dia.then((d) => {
    // as the product does (jobs/transcribe.ts): the user's named voices tell the speakers apart too
    // (only with the count estimated: a count the user gives is kept as it is)
    const speakers = given
      ? d.speakers
      : followKnownVoices(pcm, segments, d.speakers, profile, mfccGaussEmbedder, people);
    return { segments, speakers, voices: speakerVoices(pcm, segments, speakers, profile) };
  });
}

/** the diarized speaker holding most of `voice`'s speech, and the share of it each speaker holds */
function speakerOf(rec, voice) {
  const ms = new Map();
  rec.segments.forEach((s, i) => {
    if (s.voice !== voice) return;
    ms.set(rec.speakers[i], (ms.get(rec.speakers[i]) ?? 0) + s.endMs - s.startMs);
  });
  return [...ms].sort((a, b) => b[1] - a[1])[0]?.[0];
}

async function partRecordings(given) {
  // voices with three recordings of ≥ 12 s of speech
  const pool = [...voices.keys()].filter((v) => chunks(v, 12).length >= 3);
  const known = { right: 0, n: 0, wrong: 0 };
  // merged: named because diarization heard the voice as one speaker with a known voice
  const unknown = { named: 0, n: 0, merged: 0 };
  const absent = { named: 0, n: 0, merged: 0 };
  let trials = 0;
  let firstApart = 0;
  for (let s = 0; s < SEEDS; s++) {
    for (const a of pool) {
      const order = shuffle(pool.filter((v) => v !== a));
      const [b, c] = order;
      if (!b || !c) continue;
      trials++;
      const pieces = Object.fromEntries([a, b, c].map((v) => [v, shuffle(chunks(v, 12))]));
      // 1. the first recording: A and B, named by the user (the speaker holding most of each voice)
      const first = await diarized(
        [a, b].map((v) => ({ voice: v, utterances: pieces[v][0] })),
        given,
      );
      const apart = speakerOf(first, a) !== speakerOf(first, b);
      if (apart) firstApart++;
      if (process.env.DEBUG)
        console.log(`first A=${a} B=${b}: ${apart ? "apart" : "MERGED"} (${new Set(first.speakers).size} speakers)`);
      const people = [];
      for (const v of [a, b]) {
        const k = speakerOf(first, v);
        const print = first.voices.find((x) => x.speaker === k);
        if (print && !people.some((p) => p.speaker === k))
          people.push({ id: v, speaker: k, model: print.model, centroid: print.vector });
      }
      // 2. the next recordings: A, B and C
      for (const r of [1, 2]) {
        const parts = [a, b, c].map((v) => ({ voice: v, utterances: pieces[v][r] ?? pieces[v][0] }));
        const rec = await diarized(parts, given, people);
        const names = prints.matchSpeakers(rec.voices, people);
        if (process.env.DEBUG) {
          const share = (v) => {
            const m = new Map();
            rec.segments.forEach((x, i) => {
              if (x.voice === v) m.set(rec.speakers[i], (m.get(rec.speakers[i]) ?? 0) + x.endMs - x.startMs);
            });
            return [...m].map(([k, ms]) => `${k}:${(ms / 1000).toFixed(1)}`).join(",");
          };
          const sims = rec.voices
            .map(
              (x) =>
                `${x.speaker}(${(x.speechMs / 1000).toFixed(0)}s)[${people.map((p) => `${p.id}=${prints.printSimilarity(x.model, x.vector, p.centroid).toFixed(2)}`).join(" ")}]`,
            )
            .join(" ");
          console.log(
            `A=${a} ${share(a)} B=${b} ${share(b)} C=${c} ${share(c)} named ${[...names].map(([k, m]) => `${k}->${m.personId}`).join(" ")} ${sims}`,
          );
        }
        for (const v of [a, b]) {
          known.n++;
          const m = names.get(speakerOf(rec, v));
          if (m?.personId === v) known.right++;
          else if (m) known.wrong++;
        }
        unknown.n++;
        if (names.get(speakerOf(rec, c))) {
          unknown.named++;
          if ([a, b].some((v) => speakerOf(rec, v) === speakerOf(rec, c))) unknown.merged++;
        }
      }
      // 3. one more without B: A with two unknown voices C and D, neither of which may be named
      const d = order[2];
      if (d) {
        pieces[d] = shuffle(chunks(d, 12));
        const rec = await diarized(
          [a, c, d].map((v, i) => ({ voice: v, utterances: pieces[v][i === 0 ? 2 : 1] ?? pieces[v][0] })),
          given,
          people,
        );
        const names = prints.matchSpeakers(rec.voices, people);
        known.n++;
        const m = names.get(speakerOf(rec, a));
        if (m?.personId === a) known.right++;
        else if (m) known.wrong++;
        for (const v of [c, d]) {
          absent.n++;
          if (names.get(speakerOf(rec, v))) {
            absent.named++;
            if (speakerOf(rec, v) === speakerOf(rec, a)) absent.merged++;
          }
        }
      }
    }
  }
  return { known, unknown, absent, trials, pool: pool.length, firstApart };
}

// ── 3. one voice alone ──────────────────────────────────────────────────────────────────────────────────────
/** Every voice's speech (all its sessions, ~60 s at most) as one recording, diarized with the count estimated. */
async function partAlone() {
  let one = 0;
  const split = [];
  for (const voice of voices.keys()) {
    const utterances = shuffle(chunks(voice, 4).flat());
    let secs = 0;
    const used = [];
    for (const u of utterances) {
      if (secs >= 60) break;
      used.push(u);
      secs += speechSeconds(u);
    }
    const { pcm, segments } = record(turnsOf([{ voice, utterances: used }]));
    const d = await diarize(pcm, segments, { profile: energyProfile(pcm) });
    if (d.count === 1) one++;
    else split.push(`${voice} (${d.count})`);
  }
  return { one, n: voices.size, split };
}

// ── 4. words, clean ─────────────────────────────────────────────────────────────────────────────────────────
/**
 * ktuberling's seven one-voice languages as they were recorded (no channel): 16 words at a time (from the 0th, 16th,
 * 32nd and 48th file), alone in eight turns of two words — one speaker expected — and every two voices in eight
 * turns of four words, taking turns — two expected.
 */
async function partWords() {
  const languages = ["de", "el", "lt", "nn", "sl", "uk", "wa"].filter((l) => existsSync(path.join(KT, l)));
  const words = (language, from) =>
    readdirSync(path.join(KT, language))
      .sort()
      .slice(from, from + 16)
      .map((f) => decode(path.join(KT, language, f)));
  const turns = (list) => list.map(saidTogether);
  const count = async (clips) => {
    const { pcm, segments, profile } = recording(clips);
    return (await diarize(pcm, segments, { profile })).count;
  };
  const r = { one: 0, ones: 0, two: 0, twos: 0, wrong: [] };
  for (const from of [0, 16, 32, 48]) {
    const w = Object.fromEntries(languages.map((l) => [l, words(l, from)]));
    for (const a of languages) {
      const n = await count(
        turns([0, 1, 2, 3, 4, 5, 6, 7].map((t) => w[a].slice(2 * t, 2 * t + 2)).filter((x) => x.length)),
      );
      r.ones++;
      if (n === 1) r.one++;
      else r.wrong.push(`${a}@${from}: ${n}`);
      for (const b of languages.filter((x) => x > a)) {
        const both = [0, 1, 2, 3].flatMap((t) => [w[a].slice(4 * t, 4 * t + 4), w[b].slice(4 * t, 4 * t + 4)]);
        const m = await count(turns(both.filter((x) => x.length)));
        r.twos++;
        if (m === 2) r.two++;
        else r.wrong.push(`${a}+${b}@${from}: ${m}`);
      }
    }
  }
  return r;
}

// ── run ─────────────────────────────────────────────────────────────────────────────────────────────────────
if (missing.length) console.log(`not installed (skipped): ${missing.join(", ")}`);
console.log(
  `voices: ${voices.size} real human voices; model ${prints.GAUSS_MODEL}, threshold ${prints.GAUSS_THRESHOLD}, ` +
    `least speech ${prints.MIN_MATCH_SPEECH_MS / 1000} s`,
);
for (const seconds of PARTS.includes("1") ? arg("seconds", "4,8,15").split(",").map(Number) : []) {
  const all = { known: { right: 0, wrong: 0, unnamed: 0, short: 0, n: 0 }, unknown: { named: 0, n: 0, short: 0 } };
  const scores = { target: [], impostor: [] };
  let people = 0;
  for (let s = 0; s < SEEDS; s++) {
    seed = 1000 * (s + 1) + seconds;
    const r = partVoices(seconds);
    for (const k of Object.keys(all.known)) all.known[k] += r.known[k];
    for (const k of Object.keys(all.unknown)) all.unknown[k] += r.unknown[k];
    scores.target.push(...r.scores.target);
    scores.impostor.push(...r.scores.impostor);
    people = r.people;
  }
  const { known, unknown } = all;
  console.log(
    `1. voices, recordings of ~${seconds} s of speech, ${people} people known: ` +
      `known named right ${pct(known.right, known.n)} (${known.right}/${known.n}; wrong ${known.wrong}, unnamed ${known.unnamed}, ` +
      `${known.short} under the least speech) · unknown given a known name ${pct(unknown.named, unknown.n)} ` +
      `(${unknown.named}/${unknown.n})`,
  );
  if (SWEEP) {
    for (const t of [-0.5, -0.6, -0.7, -0.75, -0.8, -0.9, -1.0, -1.1, -1.2, -1.4, -1.6, -1.8, -2.0]) {
      const enough = (x) => x.ms >= Number(process.env.MIN_MS ?? prints.MIN_MATCH_SPEECH_MS);
      const tg = scores.target.filter(enough);
      const im = scores.impostor.filter(enough);
      console.log(
        `   threshold ${t}: targets over ${pct(tg.filter((x) => x.s >= t).length, tg.length)}, ` +
          `impostor pairs over ${pct(im.filter((x) => x.s >= t).length, im.length)} (${tg.length} / ${im.length} pairs)`,
      );
    }
  }
}
const COUNTS = arg("count", "estimated,given").split(",");
for (const given of PARTS.includes("2")
  ? [false, true].filter((g) => COUNTS.includes(g ? "given" : "estimated"))
  : []) {
  seed = 4242;
  const rec = await partRecordings(given);
  console.log(
    `2. recordings (A+B named, then A+B+C twice; ${rec.trials} trios from ${rec.pool} voices; speaker count ` +
      `${given ? "given" : "estimated by the product"}): known named right ${pct(rec.known.right, rec.known.n)} ` +
      `(${rec.known.right}/${rec.known.n}, wrong ${rec.known.wrong}) · unknown given a known name ` +
      `${pct(rec.unknown.named, rec.unknown.n)} (${rec.unknown.named}/${rec.unknown.n}, ${rec.unknown.merged} merged with a known voice); ` +
      `with B absent, unknown named ${pct(rec.absent.named, rec.absent.n)} (${rec.absent.named}/${rec.absent.n}, ${rec.absent.merged} merged); first recordings with A and B ` +
      `apart ${rec.firstApart}/${rec.trials}`,
  );
}
if (PARTS.includes("4") && existsSync(KT)) {
  const r = await partWords();
  console.log(
    `4. ktuberling's words, clean: one voice heard as one speaker ${r.one}/${r.ones}, two voices as two ${r.two}/${r.twos}` +
      (r.wrong.length ? `; not: ${r.wrong.join(", ")}` : ""),
  );
}
if (PARTS.includes("3")) {
  seed = 777;
  const r = await partAlone();
  console.log(
    `3. one voice alone (up to 60 s of speech, count estimated): heard as one speaker ${r.one}/${r.n}` +
      (r.split.length ? `; split: ${r.split.join(", ")}` : ""),
  );
}
