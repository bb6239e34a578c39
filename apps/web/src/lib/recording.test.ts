import { describe, expect, it } from "vitest";
import { extensionForBlobType, levelOf, micProblem, pickRecordingFormat, recordingFileName } from "./recording.ts";

describe("recording format", () => {
  it("records the browser's own WebM/Opus, uploaded as .webm", () => {
    const f = pickRecordingFormat((t) => t.startsWith("audio/mp4") || t.startsWith("audio/webm"));
    expect(f).toEqual({ mimeType: "audio/webm;codecs=opus", extension: "webm" });
  });
  it("records MP4 audio where WebM is not offered (Safari), saved as .m4a", () => {
    const f = pickRecordingFormat((t) => t.startsWith("audio/mp4"));
    expect(f).toEqual({ mimeType: "audio/mp4;codecs=mp4a.40.2", extension: "m4a" });
  });
  it("has none when nothing is supported (or the check throws)", () => {
    expect(
      pickRecordingFormat(() => {
        throw new Error("x");
      }),
    ).toBeNull();
  });
  it("names the file after what was really recorded", () => {
    expect(extensionForBlobType("audio/mp4", "webm")).toBe("m4a");
    expect(extensionForBlobType("audio/webm;codecs=opus", "m4a")).toBe("webm");
    expect(extensionForBlobType("", "m4a")).toBe("m4a");
    expect(recordingFileName("录音", "m4a", new Date(2025, 0, 2, 3, 4, 5))).toBe("录音-20250102-030405.m4a");
  });
  it("words microphone problems", () => {
    expect(micProblem(new DOMException("no", "NotAllowedError"))).toBe("denied");
    expect(micProblem(new DOMException("no", "NotFoundError"))).toBe("noDevice");
    expect(micProblem(new DOMException("no", "NotReadableError"))).toBe("busy");
    expect(micProblem(new Error("?"))).toBe("failed");
  });
  it("measures the level of a frame", () => {
    expect(levelOf(new Uint8Array(64).fill(128))).toBe(0);
    expect(levelOf(new Uint8Array(64).fill(255))).toBe(1);
  });
});
