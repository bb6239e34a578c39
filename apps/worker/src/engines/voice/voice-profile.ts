import { MY_VOICE_MAX_SECONDS, MY_VOICE_MIN_SECONDS, type SampleProblem } from "@yuelu/contracts/constants";
import { measureRecording } from "../../audio/front-end.ts";
import { pcmFrom } from "../../audio/pcm.ts";
import { detectSpeech, energyProfile } from "../../audio/vad.ts";
import { type ApparentSpeaker, apparentSpeaker } from "./apparent-speaker.ts";
import { guardedMedianPitch, pitchPercentile, trackPitch } from "./pitch.ts";
import { resample } from "./resample.ts";
import { checkSpeakers } from "./speakers.ts";
import { countSyllables, formantCentroidHz } from "./voice-measures.ts";

/**
 * "My voice" samples (issue 20): what is wrong with a recording a user offers as their voice, and, when it
 * holds speech, the profile that matchVoice (match.ts) and the song features work from. Everything is
 * measured at 16 kHz, the rate the rest of the speech code (VAD, front end, voice prints) works at.
 */

export interface VoiceProfile {
  /** median F0 of voiced frames (Hz) */
  medianHz: number;
  /** 10th / 90th percentile of F0 (Hz) */
  lowHz: number;
  highHz: number;
  /**
   * where the formants sit: the geometric-mean frequency of the smoothed spectral envelope of voiced
   * frames, 200 Hz – 5.5 kHz (voice-measures.ts formantCentroidHz); it moves with the formants, not the pitch
   */
  formantHz: number;
  /** syllable nuclei per second of speaking (pauses over 250 ms left out) */
  syllablesPerSecond: number;
  /** seconds of speaking (pauses over 250 ms left out) */
  speechSeconds: number;
  /**
   * who it sounds like — a man, a woman or a child — from its formant spacing and pitch
   * (apparent-speaker.ts); what the base voices are chosen by. Absent in profiles stored before issue 43.
   */
  apparent?: ApparentSpeaker;
}

export type { SampleProblem };

export interface SampleMeasures {
  durationS: number;
  /** level of the speech frames (energy mean of the 10 ms frames the VAD calls speech, dBFS) */
  rmsDb: number;
  /** share of samples at |x| ≥ 0.99 */
  clippedRatio: number;
  /** speech level minus noise floor (front-end.ts measureRecording: 95th − 10th percentile of frame energies) */
  snrDb: number;
  /** share of 10 ms frames with a pitch (voiced speech) */
  speechRatio: number;
  /** voices told apart (speakers.ts; 1 when it finds one or there is too little to compare) */
  speakers: number;
}

/** The thresholds, each checked on generated and real clips (tests/worker/voice-dsp.test.ts). */
export const SAMPLE_RULES = {
  /** speech quieter than this (dBFS) is too quiet to model; the JFK clip's speech is at −14 dBFS */
  minSpeechDb: -40,
  /** over this share of samples at full scale: clipped (1 %) */
  maxClippedRatio: 0.01,
  /**
   * under this SNR (dB) the noise would be modelled along with the voice: the JFK clip measures 31.5 dB,
   * with white noise 10 dB under its level 17 dB, with white noise as loud as it 8 dB
   */
  minSnrDb: 10,
  /** under this share of voiced frames there is no speech to model; the JFK clip measures 23 %, eSpeak 28–46 % */
  minSpeechRatio: 0.03,
};

const RATE = 16_000;
/** loud frames under this level (dBFS) are silence, not a recording of anything */
const SILENCE_DB = -60;

export interface SampleAnalysis {
  problems: SampleProblem[];
  measures: SampleMeasures;
  /** null when the sample holds no voiced speech */
  profile: VoiceProfile | null;
}

export function analyseVoiceSample(input: Float32Array, sampleRate: number): SampleAnalysis {
  const durationS = input.length / sampleRate;
  let clipped = 0;
  for (let i = 0; i < input.length; i++) if (Math.abs(input[i]!) >= 0.99) clipped++;
  const audio = sampleRate === RATE ? input : resample(input, sampleRate, RATE);
  const pcm = pcmFrom(audio);
  const energy = energyProfile(pcm);
  const track = trackPitch(audio, RATE);
  const voicedFrames = track.filter((hz) => hz !== null).length;

  const facts = audio.length >= 2048 ? measureRecording(pcm, energy).facts : null;
  let speechEnergy = 0;
  let speechFrames = 0;
  for (const db of energy.db) {
    if (db >= energy.threshold) {
      speechEnergy += 10 ** (db / 10);
      speechFrames++;
    }
  }
  const measures: SampleMeasures = {
    durationS,
    rmsDb: speechFrames ? 10 * Math.log10(speechEnergy / speechFrames) : -100,
    clippedRatio: input.length ? clipped / input.length : 0,
    snrDb: facts?.snrDb ?? 0,
    speechRatio: track.length ? voicedFrames / track.length : 0,
    speakers: 1,
  };

  const problems: SampleProblem[] = [];
  if (durationS < MY_VOICE_MIN_SECONDS) problems.push("too-short");
  if (durationS > MY_VOICE_MAX_SECONDS) problems.push("too-long");
  if (measures.clippedRatio > SAMPLE_RULES.maxClippedRatio) problems.push("clipped");
  // Noise loud enough to drown the voice is said even when no speech is found under it (that is why);
  // digital silence is not noise.
  const loudDb = facts?.speechDb ?? -100;
  if (measures.snrDb < SAMPLE_RULES.minSnrDb && loudDb > SILENCE_DB) problems.push("too-noisy");
  if (measures.speechRatio < SAMPLE_RULES.minSpeechRatio) {
    problems.push("no-speech");
    return { problems, measures, profile: null };
  }
  if (measures.rmsDb < SAMPLE_RULES.minSpeechDb) problems.push("too-quiet");

  measures.speakers = checkSpeakers(pcm, energy, track).speakers;
  if (measures.speakers > 1) problems.push("several-speakers");

  // Speaking time: VAD regions without padding, pauses over 250 ms left out.
  const regions = detectSpeech(pcm, { minSilenceMs: 250, padMs: 0, minSpeechMs: 80 }, energy);
  const speechSeconds = regions.reduce((s, r) => s + (r.endMs - r.startMs) / 1000, 0);
  const syllables = countSyllables(audio, energy.threshold);
  const formantHz = formantCentroidHz(audio, track);
  const medianHz = guardedMedianPitch(track)!;
  const profile: VoiceProfile | null =
    formantHz === null
      ? null
      : {
          medianHz,
          lowHz: pitchPercentile(track, 10)!,
          highHz: pitchPercentile(track, 90)!,
          formantHz,
          syllablesPerSecond: speechSeconds > 0 ? syllables / speechSeconds : 0,
          speechSeconds,
          apparent: apparentSpeaker(audio, RATE, track, medianHz),
        };
  return { problems, measures, profile };
}
