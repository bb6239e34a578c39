// The live captions' microphone tap (use-live-captions.ts), on the audio rendering thread: a busy
// page (rendering, saving the recording, uploading it) cannot make it drop audio, as a
// ScriptProcessorNode on the main thread would. It hands the input on in ~43 ms blocks.
const BLOCK = 2048;

class PcmTap extends AudioWorkletProcessor {
  constructor() {
    super();
    this.block = new Float32Array(BLOCK);
    this.filled = 0;
  }

  process(inputs) {
    const channel = inputs[0]?.[0];
    if (channel) {
      let offset = 0;
      while (offset < channel.length) {
        const n = Math.min(channel.length - offset, BLOCK - this.filled);
        this.block.set(channel.subarray(offset, offset + n), this.filled);
        this.filled += n;
        offset += n;
        if (this.filled === BLOCK) {
          this.port.postMessage(this.block, [this.block.buffer]);
          this.block = new Float32Array(BLOCK);
          this.filled = 0;
        }
      }
    }
    return true;
  }
}

registerProcessor("yuelu-pcm-tap", PcmTap);
