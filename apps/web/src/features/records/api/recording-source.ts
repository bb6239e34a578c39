import { recordingBytes, storedRecording } from "@/lib/recording-store.ts";

/** How often a waiting read looks whether the recorder wrote more (MediaRecorder hands over a chunk a second). */
const POLL_MS = 500;

/**
 * A read answers what is there after waiting this long, even short of the chunk: what the server holds trails the
 * microphone by at most this much. Not much less: on an S3 store every PATCH under 5 MiB rewrites the upload's
 * pending part, so tiny frequent PATCHes would cost the server far more than they save.
 */
const SEND_AT_LEAST_EVERY_MS = 15_000;

/** The recording was discarded while its upload waited for bytes. */
export class RecordingGone extends Error {
  constructor() {
    super("the recording was discarded");
    this.name = "RecordingGone";
  }
}

/**
 * A recording that is still being made, as a tus-js-client file source (issue 31: uploaded while recording
 * continues). A read of bytes [start, end) waits until the recorder has written that far to IndexedDB (or for
 * SEND_AT_LEAST_EVERY_MS, then answers what there is) — or has stopped, when it answers what is left and `done`,
 * which makes tus-js-client send the final Upload-Length.
 * Everything is read back from disk, so a 2-hour recording is never in memory.
 */
export class RecordingSource {
  /** unknown until the recorder stops: the upload is created with a deferred length */
  readonly size = null as unknown as number;
  private closed = false;

  constructor(
    private readonly recordingId: string,
    private readonly pollMs = POLL_MS,
    private readonly sendEveryMs = SEND_AT_LEAST_EVERY_MS,
  ) {}

  async slice(start: number, end: number): Promise<{ value: Blob; done: boolean }> {
    const since = Date.now();
    for (;;) {
      if (this.closed) throw new RecordingGone();
      const recording = await storedRecording(this.recordingId);
      if (!recording) throw new RecordingGone();
      // tus-js-client asks the next bytes from the offset the server answers, so a short read is fine
      const waitedEnough = Date.now() - since >= this.sendEveryMs && recording.bytes > start;
      if (recording.finished || recording.bytes >= end || waitedEnough) {
        const stop = Math.min(end, recording.bytes);
        const value = await recordingBytes(this.recordingId, start, stop);
        return { value, done: Boolean(recording.finished) && stop >= recording.bytes };
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  close() {
    this.closed = true;
  }
}
