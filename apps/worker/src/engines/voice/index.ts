/**
 * The offline voice DSP of issue 20 ("My voice", "AI sings for you", song voice conversion): pure
 * functions over Float32Array audio, no files, no database. tests/worker/voice-dsp.test.ts checks them;
 * bench/voice.mjs measures them.
 */
export { renderAccompaniment } from "./accompaniment.ts";
export {
  APPARENT_RULES,
  type ApparentAge,
  type ApparentSex,
  type ApparentSpeaker,
  apparentSpeaker,
  judgeSpeaker,
} from "./apparent-speaker.ts";
export { type ConvertOptions, convertSong } from "./convert.ts";
export { type FormantMeasure, measureFormants } from "./formants.ts";
export {
  FORMANT_SCALE_LIMITS,
  type MatchSettings,
  matchSettings,
  matchVoice,
  type NativeMatch,
  nativeMatch,
  scaleFrequencies,
  TIME_RATIO_LIMITS,
} from "./match.ts";
export {
  centsBetween,
  guardedMedianPitch,
  hzToMidi,
  medianPitch,
  midiToHz,
  type PitchOptions,
  type PitchTrack,
  pitchPercentile,
  trackPitch,
} from "./pitch.ts";
export { resample } from "./resample.ts";
export { rubberBandReady, type StretchOptions, stretchAlongPitch, stretchAndShift } from "./rubberband.ts";
export { type Separation, separateCentre } from "./separate.ts";
export { type SingInput, type SungSong, singSong } from "./sing.ts";
export { renderWithSoundfont } from "./soundfont.ts";
export { type SpokenVoice, speakAsFloats, speakMatchedAsFloats } from "./speak.ts";
export { checkSpeakers, SPEAKER_RULES, type SpeakerCheck } from "./speakers.ts";
export {
  analyseVoiceSample,
  SAMPLE_RULES,
  type SampleAnalysis,
  type SampleMeasures,
  type SampleProblem,
  type VoiceProfile,
} from "./voice-profile.ts";
