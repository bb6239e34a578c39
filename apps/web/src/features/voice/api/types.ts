import type {
  MyVoice,
  VoiceWork,
  ZMyVoiceList,
  ZTuneList,
  ZTuneView,
  ZVoiceCapabilities,
  ZVoiceProgressItem,
  ZVoiceQuota,
  ZVoiceWorkList,
} from "@yuelu/contracts";

/**
 * The voice answers' shapes, read off the contracts' schemas as types only (the schemas' `_output`),
 * so nothing of zod reaches the page's bundle.
 */
type Parsed<S> = S extends { _output: infer O } ? O : never;

export type { MyVoice, VoiceWork };
export type MyVoiceList = Parsed<typeof ZMyVoiceList>;
export type VoiceWorkList = Parsed<typeof ZVoiceWorkList>;
export type VoiceProgressItem = Parsed<typeof ZVoiceProgressItem>;
export type VoiceQuota = Parsed<typeof ZVoiceQuota>;
export type VoiceCapabilities = Parsed<typeof ZVoiceCapabilities>;
export type Tune = Parsed<typeof ZTuneView>;
export type TuneList = Parsed<typeof ZTuneList>;
