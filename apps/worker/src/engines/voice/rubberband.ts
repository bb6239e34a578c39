import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { RubberBandModule } from "@echogarden/rubberband-wasm";
import { IdleResource } from "../idle.ts";

/**
 * Rubber Band (R3, the "finer" engine) compiled to WebAssembly: time stretching and pitch shifting of
 * whole clips, offline (a study pass over the input, then the processing pass), so its output is as good as
 * the library makes it and exactly as long as asked. One module per process, loaded on first use and kept;
 * each call has its own stretcher and buffers and frees them, whatever happens.
 */

// rubberband-c.h option bits
const OPTION_PROCESS_OFFLINE = 0x00000000;
const OPTION_FORMANT_PRESERVED = 0x01000000;
const OPTION_ENGINE_FINER = 0x20000000;
/** stereo: both channels analysed together, so the image does not wander */
const OPTION_CHANNELS_TOGETHER = 0x10000000;

const BLOCK = 8192;
/** yield to the event loop after this many samples per channel (lock renewals, heartbeats go on) */
const YIELD_EVERY = 1 << 17;

/** The module: loaded by the first clip, let go after ENGINE_IDLE_SECONDS unused (engines/idle.ts). */
const rubberband = new IdleResource<RubberBandModule>("Rubber Band (WebAssembly)", async () => {
  const { default: init } = await import("@echogarden/rubberband-wasm");
  // Rubber Band writes diagnostics to stderr (e.g. growing its output buffer on a large stretch in
  // real-time mode): harmless, and not for a worker's log.
  return init({ print: () => {}, printErr: () => {} });
});

export interface StretchOptions {
  /** frequency ratio: 2 ** (semitones / 12); default 1 */
  pitchScale?: number;
  /** output duration / input duration; default 1 */
  timeRatio?: number;
  /**
   * the output's formant envelope relative to the input's (1 = where they were, 1.1 = 10 % higher),
   * whatever the pitch does; when given it overrides preserveFormants
   */
  formantScale?: number;
  /** keep the formants where they were while the pitch moves (voices stay human); default false */
  preserveFormants?: boolean;
}

/**
 * Stretches and pitch-shifts `channels` (equal lengths) at `sampleRate`. The output channels are each
 * exactly round(input length × timeRatio) samples long. Empty input gives empty output.
 */
export async function stretchAndShift(
  channels: Float32Array[],
  sampleRate: number,
  opts: StretchOptions,
): Promise<Float32Array[]> {
  const pitchScale = opts.pitchScale ?? 1;
  const timeRatio = opts.timeRatio ?? 1;
  for (const [name, v] of [
    ["pitchScale", pitchScale],
    ["timeRatio", timeRatio],
    ["formantScale", opts.formantScale ?? 1],
  ] as const) {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`stretchAndShift: ${name} must be positive, not ${v}`);
  }
  const length = channels[0]?.length ?? 0;
  if (channels.some((c) => c.length !== length)) throw new RangeError("stretchAndShift: channels differ in length");
  const outLength = Math.round(length * timeRatio);
  if (length === 0 || outLength === 0) return channels.map(() => new Float32Array(0));

  return rubberband.use(async (m) => {
    const count = channels.length;
    let options = OPTION_PROCESS_OFFLINE | OPTION_ENGINE_FINER;
    if (opts.preserveFormants || opts.formantScale !== undefined) options |= OPTION_FORMANT_PRESERVED;
    if (count > 1) options |= OPTION_CHANNELS_TOGETHER;

    const pointers: number[] = [];
    const alloc = (bytes: number) => {
      const p = m._malloc(bytes);
      if (!p) throw new Error("stretchAndShift: out of WebAssembly memory");
      pointers.push(p);
      return p;
    };
    const state = m._rubberband_new(sampleRate, count, options, timeRatio, pitchScale);
    if (!state) throw new Error("stretchAndShift: Rubber Band could not start");
    try {
      // Rubber Band's formant scale is applied on top of the pitch shift; ours is relative to the input.
      if (opts.formantScale !== undefined) m._rubberband_set_formant_scale(state, opts.formantScale / pitchScale);
      m._rubberband_set_expected_input_duration(state, length);
      m._rubberband_set_max_process_size(state, BLOCK);
      const inArray = alloc(count * 4);
      const outArray = alloc(count * 4);
      const inBuffers = channels.map(() => alloc(BLOCK * 4));
      const outBuffers = channels.map(() => alloc(BLOCK * 4));
      // HEAP views are replaced when the heap grows: read them afresh after anything that may allocate.
      inBuffers.forEach((p, c) => {
        m.HEAPU32[(inArray >> 2) + c] = p;
      });
      outBuffers.forEach((p, c) => {
        m.HEAPU32[(outArray >> 2) + c] = p;
      });
      const feed = (at: number) => {
        const n = Math.min(BLOCK, length - at);
        channels.forEach((ch, c) => {
          m.HEAPF32.set(ch.subarray(at, at + n), inBuffers[c]! >> 2);
        });
        return n;
      };

      for (let at = 0; at < length; at += BLOCK) {
        const n = feed(at);
        m._rubberband_study(state, inArray, n, at + n >= length ? 1 : 0);
        if (at % YIELD_EVERY < BLOCK && at > 0) await yieldToEventLoop();
      }

      const out = channels.map(() => new Float32Array(outLength));
      let written = 0;
      const drain = () => {
        for (let available = m._rubberband_available(state); available > 0; ) {
          const got = m._rubberband_retrieve(state, outArray, Math.min(available, BLOCK));
          if (got <= 0) break;
          const take = Math.min(got, outLength - written);
          if (take > 0) {
            outBuffers.forEach((p, c) => {
              out[c]!.set(m.HEAPF32.subarray(p >> 2, (p >> 2) + take), written);
            });
            written += take;
          }
          available = m._rubberband_available(state);
        }
      };
      for (let at = 0; at < length; at += BLOCK) {
        const n = feed(at);
        m._rubberband_process(state, inArray, n, at + n >= length ? 1 : 0);
        drain();
        if (at % YIELD_EVERY < BLOCK && at > 0) await yieldToEventLoop();
      }
      drain();
      // Anything short of outLength (never seen) stays silent: the length is part of the contract.
      return out;
    } finally {
      m._rubberband_delete(state);
      for (const p of pointers) m._free(p);
    }
  });
}

/** Loads the WebAssembly module ahead of the first call (e.g. at worker start). */
export async function rubberBandReady(): Promise<void> {
  await rubberband.warm();
}

const OPTION_PROCESS_REALTIME = 0x00000001;
/** input block of the real-time pass: the pitch can change this often (~6 ms at 22 kHz) */
const CURVE_BLOCK = 128;

/**
 * One channel stretched by `timeRatio` with a pitch scale that changes along the input: before each
 * block of CURVE_BLOCK input samples, `pitchScaleAt(first sample of the block)` is asked. Rubber Band's
 * real-time mode (R3) is what allows the pitch to change while it runs; its start delay is fed as
 * padding and dropped from the output, so the output lines up with the input. Formants are kept (or
 * scaled by formantScale, relative to the input, as in stretchAndShift). The output is exactly
 * round(input length × timeRatio) samples.
 */
export async function stretchAlongPitch(
  samples: Float32Array,
  sampleRate: number,
  opts: { timeRatio?: number; pitchScaleAt: (inputSample: number) => number; formantScale?: number },
): Promise<Float32Array> {
  const timeRatio = opts.timeRatio ?? 1;
  if (!Number.isFinite(timeRatio) || timeRatio <= 0) throw new RangeError(`stretchAlongPitch: timeRatio ${timeRatio}`);
  const length = samples.length;
  const outLength = Math.round(length * timeRatio);
  const out = new Float32Array(outLength);
  if (length === 0 || outLength === 0) return out;
  const safeScale = (at: number) => {
    const v = opts.pitchScaleAt(at);
    return Number.isFinite(v) && v > 0 ? Math.min(8, Math.max(0.125, v)) : 1;
  };
  return rubberband.use(async (m) => {
    const options = OPTION_PROCESS_REALTIME | OPTION_ENGINE_FINER | OPTION_FORMANT_PRESERVED;
    const firstScale = safeScale(0);
    const state = m._rubberband_new(sampleRate, 1, options, timeRatio, firstScale);
    if (!state) throw new Error("stretchAlongPitch: Rubber Band could not start");
    const pointers: number[] = [];
    try {
      if (opts.formantScale !== undefined) m._rubberband_set_formant_scale(state, opts.formantScale / firstScale);
      m._rubberband_set_max_process_size(state, BLOCK);
      const pad = m._rubberband_get_preferred_start_pad(state);
      let skip = m._rubberband_get_start_delay(state);
      const inPtr = m._malloc(BLOCK * 4);
      pointers.push(inPtr);
      const outPtr = m._malloc(BLOCK * 4);
      pointers.push(outPtr);
      const inArray = m._malloc(4);
      pointers.push(inArray);
      const outArray = m._malloc(4);
      pointers.push(outArray);
      m.HEAPU32[inArray >> 2] = inPtr;
      m.HEAPU32[outArray >> 2] = outPtr;
      let written = 0;
      const drain = () => {
        for (let available = m._rubberband_available(state); available > 0; ) {
          const got = m._rubberband_retrieve(state, outArray, Math.min(available, BLOCK));
          if (got <= 0) break;
          const chunk = m.HEAPF32.subarray(outPtr >> 2, (outPtr >> 2) + got);
          const drop = Math.min(skip, got);
          skip -= drop;
          const take = Math.min(got - drop, outLength - written);
          if (take > 0) {
            out.set(chunk.subarray(drop, drop + take), written);
            written += take;
          }
          available = m._rubberband_available(state);
        }
      };
      for (let left = pad; left > 0; ) {
        const n = Math.min(BLOCK, left);
        m.HEAPF32.fill(0, inPtr >> 2, (inPtr >> 2) + n);
        m._rubberband_process(state, inArray, n, 0);
        left -= n;
        drain();
      }
      for (let at = 0; at < length; at += CURVE_BLOCK) {
        const n = Math.min(CURVE_BLOCK, length - at);
        const scale = safeScale(at);
        m._rubberband_set_pitch_scale(state, scale);
        if (opts.formantScale !== undefined) m._rubberband_set_formant_scale(state, opts.formantScale / scale);
        m.HEAPF32.set(samples.subarray(at, at + n), inPtr >> 2);
        m._rubberband_process(state, inArray, n, at + n >= length ? 1 : 0);
        drain();
        if (at % YIELD_EVERY < CURVE_BLOCK && at > 0) await yieldToEventLoop();
      }
      // Real-time mode may hold back its last output until it is asked again.
      for (let tries = 0; written < outLength && tries < 64 && m._rubberband_available(state) >= 0; tries++) drain();
      return out;
    } finally {
      m._rubberband_delete(state);
      for (const p of pointers) m._free(p);
    }
  });
}
