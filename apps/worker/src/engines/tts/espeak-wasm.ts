import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { ESpeakNGWorker } from "@echogarden/espeak-ng-emscripten";
import { IdleResource } from "../idle.ts";
import type { PcmAudio } from "./types.ts";

/**
 * eSpeak NG compiled to WebAssembly (`@echogarden/espeak-ng-emscripten`, the build Echogarden uses):
 * the offline voices on a machine without the espeak-ng program. One instance per process, loaded on
 * first use (~0.15 s, the Mandarin dictionary on its first sentence ~0.25 s) and kept while sentences come: each sentence
 * then costs about what the program costs. Its settings mirror the program's `-v voice+variant -s
 * rate -p pitch`; it has no word-gap setting (the program's `-g`), so that parameter is not applied.
 */

/** The WASM build's output rate, the same as the program's. */
const SAMPLE_RATE = 22_050;

/** One instance per process: loaded by the first sentence, let go after ENGINE_IDLE_SECONDS unused (engines/idle.ts). */
const espeak = new IdleResource<ESpeakNGWorker>("eSpeak NG (WebAssembly)", async () => {
  const { default: init } = await import("@echogarden/espeak-ng-emscripten");
  const module = await init();
  return new module.eSpeakNGWorker();
});

export interface WasmVoice {
  /** "cmn", "en-us", "en-gb", with an optional "+variant" */
  voice: string;
  rate: number;
  pitch: number;
}

/**
 * Selects `voice` ("en-gb+f2"). The build finds voices by their files' names, where the program also
 * matches languages: British English is the file "en" there, so "en-gb" was unknown and the library's
 * British voices failed on a machine without the program. A name with a region the build has no file
 * for falls back to its language's file, keeping the variant.
 */
function setVoice(espeak: ESpeakNGWorker, voice: string): boolean {
  if (espeak.set_voice(voice) === 0) return true;
  const [name = "", variant] = voice.split("+");
  const language = name.split("-")[0]!;
  return language !== name && espeak.set_voice(variant ? `${language}+${variant}` : language) === 0;
}

/**
 * Speaks `text` in `voice`. Calls take turns (one instance, one voice setting at a time); between
 * sentences the event loop runs, so lock renewals and heartbeats of the worker go on.
 */
let queue: Promise<unknown> = Promise.resolve();

/** One of eSpeak's synthesis events: a word or phoneme begins (`audio_position`, ms into the speech). */
export interface EspeakEvent {
  type: string;
  /** 1-based character index into the text spoken */
  text_position: number;
  audio_position: number;
  /** a phoneme's name ("" for a pause) */
  id?: string | number;
}

export function speakWasm(
  text: string,
  voice: WasmVoice,
  signal?: AbortSignal,
  /** eSpeak's word and phoneme events as they come (the word-time aligner reads them) */
  onEvents?: (events: EspeakEvent[]) => void,
): Promise<PcmAudio> {
  const turn = queue.then(() =>
    espeak.use(async (espeak) => {
      signal?.throwIfAborted();
      await yieldToEventLoop();
      if (!setVoice(espeak, voice.voice)) {
        throw new Error(`eSpeak NG (WebAssembly) has no voice '${voice.voice}'`);
      }
      espeak.set_rate(voice.rate);
      espeak.set_pitch(voice.pitch);
      const chunks: Int16Array[] = [];
      let length = 0;
      espeak.synthesize(text, (samples, events) => {
        if (onEvents && Array.isArray(events) && events.length) onEvents(events as EspeakEvent[]);
        if (samples?.length) {
          chunks.push(samples.slice());
          length += samples.length;
        }
      });
      const out = new Int16Array(length);
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.length;
      }
      return { sampleRate: SAMPLE_RATE, samples: out };
    }),
  );
  queue = turn.catch(() => {});
  return turn;
}

/** Whether the WASM build loads and knows `voice` (asked once per voice). */
const known = new Map<string, Promise<boolean>>();
export function wasmKnowsVoice(voice: string): Promise<boolean> {
  let answer = known.get(voice);
  if (!answer) {
    answer = espeak.use((espeak) => setVoice(espeak, voice)).catch(() => false);
    known.set(voice, answer);
  }
  return answer;
}
