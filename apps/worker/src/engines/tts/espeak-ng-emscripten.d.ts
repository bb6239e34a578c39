/** The parts of @echogarden/espeak-ng-emscripten (no types of its own) that espeak-wasm.ts uses. */
declare module "@echogarden/espeak-ng-emscripten" {
  export interface ESpeakNGWorker {
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): number;
    set_pitch(pitch: number): number;
    synthesize(text: string, onChunk: (samples: Int16Array | undefined, events: unknown[]) => void): number;
  }
  const init: () => Promise<{ eSpeakNGWorker: new () => ESpeakNGWorker }>;
  export default init;
}
