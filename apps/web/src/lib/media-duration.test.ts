import { afterEach, describe, expect, it, vi } from "vitest";
import { type MediaElementFactory, readMediaDuration } from "./media-duration.ts";

/** A media element that answers with `duration`, an error, or nothing at all. */
function fakeMedia(answer: number | "error" | "silent") {
  const made: { kind: string; element: HTMLMediaElement }[] = [];
  const create: MediaElementFactory = (kind) => {
    const element = document.createElement(kind);
    Object.defineProperty(element, "src", {
      configurable: true,
      set(value: string) {
        if (!value || answer === "silent") return;
        queueMicrotask(() => {
          if (answer === "error") element.onerror?.(new Event("error"));
          else {
            Object.defineProperty(element, "duration", { configurable: true, value: answer });
            element.onloadedmetadata?.(new Event("loadedmetadata"));
          }
        });
      },
    });
    made.push({ kind, element });
    return element;
  };
  return { create, made };
}

const file = (name: string) => new File(["x"], name);

afterEach(() => vi.restoreAllMocks());

describe("readMediaDuration", () => {
  it("reads the length from the metadata of an object URL, then lets the file go", async () => {
    const revoke = vi.spyOn(URL, "revokeObjectURL");
    const { create, made } = fakeMedia(4 * 3600 + 12.5);
    await expect(readMediaDuration(file("会议.mp3"), { create })).resolves.toBe(4 * 3600 + 12.5);
    expect(made[0]?.kind).toBe("audio");
    expect(made[0]?.element.preload).toBe("metadata");
    expect(revoke).toHaveBeenCalled();
  });

  it("uses a <video> for video containers", async () => {
    const { create, made } = fakeMedia(60);
    await readMediaDuration(file("talk.MP4"), { create });
    expect(made[0]?.kind).toBe("video");
  });

  it("answers null when the browser cannot decode it, or the length is not finite", async () => {
    await expect(readMediaDuration(file("a.wma"), { create: fakeMedia("error").create })).resolves.toBeNull();
    await expect(
      readMediaDuration(file("a.mkv"), { create: fakeMedia(Number.POSITIVE_INFINITY).create }),
    ).resolves.toBeNull();
  });

  it("gives up after the timeout", async () => {
    vi.useFakeTimers();
    const pending = readMediaDuration(file("a.amr"), { create: fakeMedia("silent").create, timeoutMs: 5000 });
    await vi.advanceTimersByTimeAsync(5000);
    await expect(pending).resolves.toBeNull();
    vi.useRealTimers();
  });
});
