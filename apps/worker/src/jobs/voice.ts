import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import {
  MEDIA_LENGTH_TOLERANCE_SECONDS,
  MY_VOICE_MAX_SECONDS,
  SONG_MAX_SECONDS,
  type VoiceJob,
  ZVoiceProfile,
} from "@yuelu/contracts";
import {
  claimVoiceTask,
  completeVoiceTask,
  type DomainContext,
  findVoice,
  type LibraryVoice,
  libraryVoices,
  reportVoiceProgress,
} from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import { decodeChannels, encodeMp3 } from "../audio/stereo.ts";
import type { TtsEngineResolver } from "../engines/tts/factory.ts";
import { TtsEngineUnavailableError } from "../engines/tts/types.ts";
import { PermanentVoiceError } from "../engines/voice/errors.ts";
import {
  type ApparentSpeaker,
  analyseVoiceSample,
  convertSong,
  judgeSpeaker,
  resample,
  singSong,
  speakAsFloats,
  speakMatchedAsFloats,
  stretchAndShift,
  type VoiceProfile,
} from "../engines/voice/index.ts";
import {
  cloneSpeak,
  convertRemote,
  type RemoteVoiceConfig,
  referenceWav,
  separateRemote,
  storedReference,
} from "../engines/voice/remote.ts";

/**
 * The voice queue's jobs (docs/voice.md "What the worker does"): analyse a sample into a personal
 * voice, sing lyrics on a melody, convert a song's vocals. Every result goes to the file store and
 * the task moves through the shared task machine (domain/tasks).
 */

export interface VoiceJobContext {
  domain: DomainContext;
  files: FileStore;
  tts: TtsEngineResolver;
  /** the configured voice engines (docs/voice.md "Configured engines"); none: everything offline */
  remote?: RemoteVoiceConfig;
  /** the General MIDI sound font sung songs' accompaniment is played on (runtime findSoundfont); none: the synthesiser */
  soundfont?: string | undefined;
  log?: { info(obj: unknown, msg?: string): void };
  progressEveryMs?: number;
}

export { PermanentVoiceError };

/** The task is no longer waiting or running (deleted, failed by housekeeping): drop the job. */
export class VoiceTaskGoneError extends Error {
  constructor(kind: string, id: number) {
    super(`${kind} ${id} is gone or no longer open`);
    this.name = "VoiceTaskGoneError";
  }
}

/** The rate voices are rendered and sung at (speech engines answer 16–24 kHz). */
const VOICE_RATE = 24_000;
/** Songs are converted at this rate: full enough for music, half the memory of 44.1 kHz stereo. */
const SONG_RATE = 32_000;
/** Analysis is at 16 kHz (the speech code's rate). */
const ANALYSIS_RATE = 16_000;

const PREVIEW_TEXT = {
  zh: "你好，这是用我的声音读出来的一段话。今天天气很好，我们一起去公园散步吧。",
  en: "Hello, this is a short passage read in my own voice. The weather is lovely today, so let's take a walk in the park.",
} as const;

export async function runVoiceJob(job: VoiceJob, ctx: VoiceJobContext) {
  if (!(await claimVoiceTask(ctx.domain, job.kind, job.id))) throw new VoiceTaskGoneError(job.kind, job.id);
  return job.kind === "voice" ? trainVoice(job.id, ctx) : makeWork(job.id, ctx);
}

/** A progress reporter that writes at most every `everyMs` and says when the task stopped running. */
function progressOf(ctx: VoiceJobContext, kind: "voice" | "work", id: number) {
  let last = 0;
  let gone = false;
  return {
    async report(fraction: number, force = false) {
      if (gone) throw new VoiceTaskGoneError(kind, id);
      const now = Date.now();
      if (!force && now - last < (ctx.progressEveryMs ?? 1000)) return;
      last = now;
      if (!(await reportVoiceProgress(ctx.domain, kind, id, fraction * 100))) gone = true;
      if (gone) throw new VoiceTaskGoneError(kind, id);
    },
    /** for synchronous callbacks: the write happens in the background, the next report throws if gone */
    note(fraction: number) {
      const now = Date.now();
      if (gone || now - last < (ctx.progressEveryMs ?? 1000)) return;
      last = now;
      reportVoiceProgress(ctx.domain, kind, id, fraction * 100).then(
        (running) => {
          if (!running) gone = true;
        },
        () => {},
      );
    },
  };
}

/** Speech of `text` by a library voice as floats at VOICE_RATE. */
const speak = (ctx: VoiceJobContext, voice: LibraryVoice, text: string) =>
  speakAsFloats(ctx.tts(voice.engine), voice, text, VOICE_RATE);

/** `text` by a library voice matched to `target`, as synthesis tasks in a personal voice are made. */
const speakMatched = (
  ctx: VoiceJobContext,
  voice: LibraryVoice,
  text: string,
  base: VoiceProfile,
  target: VoiceProfile,
) => speakMatchedAsFloats(ctx.tts(voice.engine), voice, text, VOICE_RATE, base, target);

/** The profile of a library voice, measured on its own speech. */
async function libraryProfile(ctx: VoiceJobContext, voice: LibraryVoice): Promise<VoiceProfile | null> {
  const speech = await speak(ctx, voice, `${voice.sampleText} ${PREVIEW_TEXT[voice.language]}`);
  if (speech.length === 0) return null;
  return analyseVoiceSample(resample(speech, VOICE_RATE, ANALYSIS_RATE), ANALYSIS_RATE).profile;
}

/** How far apart two voices are: pitch in octaves, formants counting half. */
function distance(a: VoiceProfile, b: VoiceProfile): number {
  return Math.abs(Math.log2(a.medianHz / b.medianHz)) + 0.5 * Math.abs(Math.log2(a.formantHz / b.formantHz));
}

/**
 * What a base voice costs beyond its distance: eSpeak's formant synthesis is less clear than festival's HTS
 * voice, the more so the further it is moved (bench/voice.mjs: matched to a real speaker, eSpeak voices
 * transcribe back at 2.5–18 % WER, festival's at about 7 %), so where a clearer voice exists it wins unless
 * it is a third of an octave further.
 */
const ROBOTIC_ENGINE_COST: Record<string, number> = { "espeak-ng": 0.35 };
const baseCost = (voice: LibraryVoice, profile: VoiceProfile, target: VoiceProfile) =>
  distance(profile, target) + (ROBOTIC_ENGINE_COST[voice.engine] ?? 0);

/**
 * Voices that are an effect rather than a person — a robot, a whisper (no pitch to match) — are never a
 * personal voice's base: matched to a man (118 Hz) on a machine without festival, eSpeak's robot voice was
 * the nearest by pitch and transcribed back at 27 % WER, the nearest man's voice at 0 %.
 */
const EFFECT_STYLES: ReadonlySet<string> = new Set(["robot", "whisper"]);

/**
 * Whether a library voice is of the sample's apparent kind (engines/voice/apparent-speaker.ts): a man's
 * voice (of any age but a child's) for a man, a woman's (not a girl's) for a woman, a child's for a child.
 */
const ofKind = (voice: LibraryVoice, who: ApparentSpeaker) =>
  who.age === "child" ? voice.ageGroup === "child" : voice.ageGroup !== "child" && voice.gender === who.sex;

/**
 * The library voices worth measuring against a profile (issue 43): people's voices (not EFFECT_STYLES) of
 * the speaker's apparent sex and age — never a child's or a woman's voice for a man, nor a man's for a
 * woman or a child: JFK (a man shouting at 255 Hz) was based on 朵朵, a girl's voice, when pitch alone
 * chose. Profiles stored without `apparent` are judged by their pitch. Where the library has none of the
 * kind: for a child a woman's voice, then "neutral" voices, and only then any person's (an install whose
 * operators disabled every voice of the kind still trains). At most 8 — each costs a rendering and an
 * analysis (about half a second), and a training should not take minutes on a busy machine. The nearest
 * of them by pitch and formants becomes the base (baseCost).
 */
export function likelyBases(voices: LibraryVoice[], target: VoiceProfile): LibraryVoice[] {
  const people = voices.filter((v) => !EFFECT_STYLES.has(v.style));
  const pool = people.length > 0 ? people : voices;
  const who = target.apparent ?? judgeSpeaker(target.medianHz, null, null);
  const tiers = [
    pool.filter((v) => ofKind(v, who)),
    who.age === "child" ? pool.filter((v) => v.gender === "female" && v.ageGroup !== "child") : [],
    pool.filter((v) => v.gender === "neutral" && v.ageGroup !== "child"),
  ];
  return (tiers.find((tier) => tier.length > 0) ?? pool).slice(0, 8);
}

/** A stored upload's audio, decoded no further than `acceptedSeconds` (its measured length, or its kind's limit). */
async function fetchToFloat(
  ctx: VoiceJobContext,
  key: string,
  rate: number,
  channels: 1 | 2,
  acceptedSeconds: number,
): Promise<Float32Array[]> {
  const longest = acceptedSeconds + MEDIA_LENGTH_TOLERANCE_SECONDS;
  try {
    return await ctx.files.withLocalCopy(key, (file) => decodeChannels(file, rate, channels, longest));
  } catch (error) {
    throw new PermanentVoiceError("unreadable-audio", `could not decode ${key}: ${(error as Error).message}`);
  }
}

async function storeMp3(ctx: VoiceJobContext, key: string, channels: Float32Array[], rate: number) {
  const data = await encodeMp3(channels, rate);
  const { size } = await ctx.files.put(key, Readable.from([data]));
  return size;
}

// ───────────────────────────── my voice ─────────────────────────────

/**
 * Checks the sample (too short/long, quiet, clipped, noisy, no speech, several speakers: 40003 with
 * the first problem), measures its profile, picks the library voice of its language closest to it
 * (pitch and formants) among those of the speaker's apparent sex and age (likelyBases), and makes a preview: that voice moved toward the profile (voice matching).
 * With a clone server configured the voice is a clone of the sample instead (cloneVoice).
 */
async function trainVoice(id: number, ctx: VoiceJobContext) {
  const { db } = ctx.domain;
  const progress = progressOf(ctx, "voice", id);
  const row = await db.userVoice.findUnique({ where: { id } });
  if (!row) throw new VoiceTaskGoneError("voice", id);
  const language = row.language === "en" ? "en" : "zh";
  const [sample] = await fetchToFloat(ctx, row.sourceKey, ANALYSIS_RATE, 1, row.sampleSeconds || MY_VOICE_MAX_SECONDS);
  const analysis = analyseVoiceSample(sample!, ANALYSIS_RATE);
  const problem = analysis.problems[0];
  if (problem || !analysis.profile) {
    throw new PermanentVoiceError(problem ?? "no-speech", `sample refused: ${analysis.problems.join(", ")}`);
  }
  const target = analysis.profile;
  await progress.report(0.25, true);
  if (ctx.remote?.VOICE_CLONE_URL) {
    const speech = await cloneSpeak(
      ctx.remote,
      { text: PREVIEW_TEXT[language], reference: referenceWav(sample!, ANALYSIS_RATE), language },
      VOICE_RATE,
    );
    if (speech.length === 0)
      throw new PermanentVoiceError("remote-failed", "the voice clone server answered no speech");
    await progress.report(0.9, true);
    await finishVoice(ctx, row, speech, { method: "clone", profile: target as object, basePromptId: null }, analysis);
    ctx.log?.info({ voiceId: id, target }, "voice cloned");
    return { status: "done", basePromptId: null };
  }

  const candidates = likelyBases(await libraryVoices(db, { language, engines: ["espeak-ng", "festival"] }), target);
  let best: { voice: LibraryVoice; profile: VoiceProfile; distance: number } | undefined;
  for (const [i, voice] of candidates.entries()) {
    const profile = await libraryProfile(ctx, voice).catch((error: unknown) => {
      if (error instanceof TtsEngineUnavailableError) return null; // an engine this worker lacks: try the next voice
      throw error;
    });
    if (profile && (!best || baseCost(voice, profile, target) < best.distance)) {
      best = { voice, profile, distance: baseCost(voice, profile, target) };
    }
    await progress.report(0.25 + (0.5 * (i + 1)) / candidates.length);
  }
  if (!best) throw new PermanentVoiceError("engine-unavailable", `no library voice speaks ${language} on this worker`);

  const matched = await speakMatched(ctx, best.voice, PREVIEW_TEXT[language], best.profile, target);
  await progress.report(0.9, true);
  const output = {
    method: "match" as const,
    profile: target as object,
    baseProfile: best.profile as object,
    basePromptId: best.voice.promptId,
  };
  await finishVoice(ctx, row, matched, output, analysis);
  ctx.log?.info({ voiceId: id, base: best.voice.slug, target, base_profile: best.profile }, "voice matched");
  return { status: "done", basePromptId: best.voice.promptId };
}

/** Stores the preview and completes the voice with `output`; a voice gone meanwhile leaves no file behind. */
async function finishVoice(
  ctx: VoiceJobContext,
  row: { id: number; userId: number; sourceKey: string },
  preview: Float32Array,
  output: { method: "match" | "clone"; profile: object; baseProfile?: object; basePromptId: number | null },
  analysis: { measures: unknown },
) {
  // Trained again meanwhile (a new sample, a new job): this analysis is of the old sample; drop it.
  const current = await ctx.domain.db.userVoice.findUnique({ where: { id: row.id }, select: { sourceKey: true } });
  if (current?.sourceKey !== row.sourceKey) throw new VoiceTaskGoneError("voice", row.id);
  const previewKey = `voice/${row.userId}/previews/${row.id}-${randomUUID()}.mp3`;
  await storeMp3(ctx, previewKey, [preview], VOICE_RATE);
  const done = await completeVoiceTask(ctx.domain, "voice", row.id, {
    ...output,
    previewKey,
    quality: analysis.measures as object,
  });
  if (!done) {
    await ctx.files.delete(previewKey);
    throw new VoiceTaskGoneError("voice", row.id);
  }
}

/**
 * One of the user's voices (for works sung or converted in it), or null: a matched voice has both
 * profiles, a cloned one only its own (it has no base).
 */
async function userVoiceOf(ctx: VoiceJobContext, userVoiceId: number | null) {
  if (userVoiceId === null) return null;
  const voice = await ctx.domain.db.userVoice.findUnique({ where: { id: userVoiceId } });
  const target = ZVoiceProfile.safeParse(voice?.profile);
  if (!voice || !target.success) return null;
  if (voice.method === "clone") return { method: "clone" as const, sourceKey: voice.sourceKey, target: target.data };
  const base = ZVoiceProfile.safeParse(voice.baseProfile);
  if (!base.success) return null;
  return { method: "match" as const, sourceKey: voice.sourceKey, target: target.data, base: base.data };
}

/** A stored sample as a reference clip for a configured engine. */
async function sampleReference(ctx: VoiceJobContext, key: string): Promise<Buffer> {
  try {
    return await storedReference(ctx.files, key);
  } catch (error) {
    throw new PermanentVoiceError("unreadable-audio", `could not decode ${key}: ${(error as Error).message}`);
  }
}

// ───────────────────────────── works ─────────────────────────────

interface WorkSettings {
  bpm?: number;
  tempo?: number;
  semitones?: number;
  melody?: { midi: number; start: number; duration: number }[];
  accompaniment?: { midi: number; start: number; duration: number }[];
  syllables?: string[];
}

async function makeWork(id: number, ctx: VoiceJobContext) {
  const { db } = ctx.domain;
  const work = await db.voiceWork.findUnique({ where: { id } });
  if (!work) throw new VoiceTaskGoneError("work", id);
  const library = work.promptId ? await findVoice(db, work.promptId) : null;
  if (!library) throw new PermanentVoiceError("voice-gone", `work ${id}: its voice ${work.promptId} is gone`);
  const mine = await userVoiceOf(ctx, work.userVoiceId);
  if (work.userVoiceId !== null && !mine) throw new PermanentVoiceError("voice-gone", `work ${id}: its voice is gone`);
  const settings = (work.settings ?? {}) as WorkSettings;
  const progress = progressOf(ctx, "work", id);
  const started = Date.now();

  let channels: Float32Array[];
  let vocals: Float32Array;
  let rate: number;
  if (work.kind === "sing") {
    rate = VOICE_RATE;
    const formantScale = mine?.method === "match" ? clamp(mine.target.formantHz / mine.base.formantHz, 0.8, 1.25) : 1;
    // a cloned voice: every distinct syllable spoken by the clone server (singSong asks once for each)
    const reference = mine?.method === "clone" ? await sampleReference(ctx, mine.sourceKey) : null;
    const sung = await singSong({
      melody: settings.melody ?? [],
      accompaniment: settings.accompaniment ?? [],
      bpm: settings.bpm ?? 100,
      syllables: settings.syllables ?? [],
      keyShift: 0, // the API stored the melody already in the chosen key
      tempo: settings.tempo ?? 1,
      sampleRate: rate,
      soundfont: ctx.soundfont,
      say: async (syllable) => {
        if (reference) return cloneSpeak(ctx.remote ?? {}, { text: syllable, reference }, rate);
        const speech = await speak(ctx, library, syllable);
        if (formantScale === 1 || speech.length === 0) return speech;
        const [moved] = await stretchAndShift([speech], rate, { formantScale, preserveFormants: true });
        return moved!;
      },
      onProgress: (f) => progress.note(0.05 + 0.8 * f),
    });
    channels = [sung.mix];
    vocals = sung.vocals;
  } else {
    rate = SONG_RATE;
    const [left, right] = await fetchToFloat(ctx, work.inputKey ?? "", rate, 2, SONG_MAX_SECONDS);
    await progress.report(0.1, true);
    const remote = ctx.remote ?? {};
    const semitones = settings.semitones ?? 0;
    const separation = remote.VOICE_SEPARATE_URL ? await separateRemote(remote, left!, right!, rate) : undefined;
    // a configured converter makes the voice itself; offline, the formants move toward the chosen voice
    const reference = remote.VOICE_CONVERT_URL ? await conversionReference(ctx, library, mine) : null;
    const formantScale = reference ? 1 : await conversionFormantScale(ctx, library, mine, left!, right!, rate);
    const converted = await convertSong(left!, right!, rate, {
      semitones,
      formantScale,
      // the band moves with the singer, so the song stays in tune in its new key
      shiftAccompaniment: true,
      separation,
      convertVocals: reference ? (audio) => convertRemote(remote, { audio, rate, semitones, reference }) : undefined,
      onProgress: (f) => progress.note(0.1 + 0.75 * f),
    });
    channels = [converted.left, converted.right];
    vocals = converted.vocals;
  }
  await progress.report(0.88, true);
  const outputKey = `voice/${work.userId}/works/${id}-${randomUUID()}.mp3`;
  const vocalsKey = `voice/${work.userId}/works/${id}-vocals-${randomUUID()}.mp3`;
  const fileSize = await storeMp3(ctx, outputKey, channels, rate);
  await storeMp3(ctx, vocalsKey, [vocals], rate);
  const durationMs = Math.round(((channels[0]?.length ?? 0) / rate) * 1000);
  const done = await completeVoiceTask(ctx.domain, "work", id, { outputKey, vocalsKey, fileSize, durationMs });
  if (!done) {
    await Promise.all([ctx.files.delete(outputKey), ctx.files.delete(vocalsKey)]);
    throw new VoiceTaskGoneError("work", id);
  }
  const wallSeconds = (Date.now() - started) / 1000;
  ctx.log?.info({ workId: id, kind: work.kind, audioSeconds: durationMs / 1000, wallSeconds }, "voice work done");
  return { status: "done", durationMs };
}

/**
 * What a configured converter is told to sound like: the user's sample for a voice of mine, else the
 * library voice's own speech (its sample text and the preview passage).
 */
async function conversionReference(
  ctx: VoiceJobContext,
  library: LibraryVoice,
  mine: { sourceKey: string } | null,
): Promise<Buffer> {
  if (mine) return sampleReference(ctx, mine.sourceKey);
  const speech = await speak(ctx, library, `${library.sampleText} ${PREVIEW_TEXT[library.language]}`);
  if (speech.length === 0) throw new PermanentVoiceError("engine-unavailable", `${library.slug} spoke nothing`);
  return referenceWav(speech, VOICE_RATE);
}

/**
 * How far to move the song's formants toward the chosen voice: the voice's formant measure over the
 * song's (its centre, where the vocals are), within ±20 % so the singer stays intelligible.
 */
async function conversionFormantScale(
  ctx: VoiceJobContext,
  library: LibraryVoice,
  mine: { target: VoiceProfile } | null,
  left: Float32Array,
  right: Float32Array,
  rate: number,
): Promise<number> {
  const target = mine?.target ?? (await libraryProfile(ctx, library).catch(() => null));
  if (!target) return 1;
  // a minute from the middle of the song is enough to measure, and keeps a long song quick
  const span = Math.min(left.length, 60 * rate);
  const from = Math.floor((left.length - span) / 2);
  const centre = new Float32Array(span);
  for (let i = 0; i < span; i++) centre[i] = (left[from + i]! + right[from + i]!) / 2;
  const song = analyseVoiceSample(resample(centre, rate, ANALYSIS_RATE), ANALYSIS_RATE).profile;
  if (!song) return 1;
  return clamp(target.formantHz / song.formantHz, 0.83, 1.2);
}

const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Number.isFinite(x) ? x : 1));
