/** The parts of @echogarden/rubberband-wasm (Rubber Band's C API compiled by Emscripten; no types of its own) that rubberband.ts uses. */
declare module "@echogarden/rubberband-wasm" {
  export interface RubberBandModule {
    /** Views of the WASM memory; replaced when the heap grows, so read them after every call that may allocate. */
    HEAPF32: Float32Array;
    HEAPU32: Uint32Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    _rubberband_new(
      sampleRate: number,
      channels: number,
      options: number,
      timeRatio: number,
      pitchScale: number,
    ): number;
    _rubberband_delete(state: number): void;
    _rubberband_set_expected_input_duration(state: number, samples: number): void;
    _rubberband_set_max_process_size(state: number, samples: number): void;
    _rubberband_set_formant_scale(state: number, scale: number): void;
    _rubberband_study(state: number, channelPointers: number, samples: number, final: number): void;
    _rubberband_process(state: number, channelPointers: number, samples: number, final: number): void;
    _rubberband_available(state: number): number;
    _rubberband_retrieve(state: number, channelPointers: number, samples: number): number;
    _rubberband_get_engine_version(state: number): number;
    _rubberband_set_pitch_scale(state: number, scale: number): void;
    _rubberband_get_preferred_start_pad(state: number): number;
    _rubberband_get_start_delay(state: number): number;
  }
  const init: (module?: object) => Promise<RubberBandModule>;
  export default init;
}
