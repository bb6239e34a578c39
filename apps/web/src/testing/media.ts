import { vi } from "vitest";

/**
 * happy-dom has no media decoding: play() and pause() become state changes with their events, so a
 * test sees what a browser's player would report. Answers the elements play() was called on.
 */
export function stubMedia() {
  const played: HTMLMediaElement[] = [];
  const paused = new WeakMap<HTMLMediaElement, boolean>();
  vi.spyOn(HTMLMediaElement.prototype, "paused", "get").mockImplementation(function (this: HTMLMediaElement) {
    return paused.get(this) ?? true;
  });
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(function (this: HTMLMediaElement) {
    played.push(this);
    paused.set(this, false);
    this.dispatchEvent(new Event("play"));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(function (this: HTMLMediaElement) {
    if (paused.get(this) === false) {
      paused.set(this, true);
      this.dispatchEvent(new Event("pause"));
    }
  });
  return { played };
}

/**
 * A microphone and a MediaRecorder for the guided recorder: getUserMedia answers a stream whose
 * tracks can be stopped, the recorder hands one chunk of `type` on stop. `clock` moves Date.now.
 */
export function stubRecorder(type = "audio/webm;codecs=opus") {
  let now = 1_000_000;
  vi.spyOn(Date, "now").mockImplementation(() => now);
  const stopped: string[] = [];
  const stream = { getTracks: () => [{ stop: () => stopped.push("track") }] } as unknown as MediaStream;
  const getUserMedia = vi.fn(async () => stream);
  Object.defineProperty(navigator, "mediaDevices", { value: { getUserMedia }, configurable: true });
  class FakeRecorder {
    static isTypeSupported = (t: string) => t === type;
    state: "inactive" | "recording" = "inactive";
    mimeType = type;
    ondataavailable: ((e: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    start() {
      this.state = "recording";
    }
    stop() {
      this.state = "inactive";
      this.ondataavailable?.({ data: new Blob([new Uint8Array(2048)], { type }) });
      this.onstop?.();
    }
  }
  vi.stubGlobal("MediaRecorder", FakeRecorder);
  return {
    getUserMedia,
    stopped,
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}
