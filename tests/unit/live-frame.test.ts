import { decodeLiveFrame, encodeLiveFrame } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";

describe("live-caption frames (docs/live.md Protocol)", () => {
  it("decodes a frame that sits at an odd offset of the socket's buffer (frames that arrived in one read)", () => {
    const pcm = Int16Array.from([1, -2, 3, -32768, 32767]);
    const frame = encodeLiveFrame(4000, pcm);
    // what ws hands over for the second of two frames read together: a view into one pooled Buffer
    const pooled = Buffer.concat([Buffer.from([7]), Buffer.from(frame)]).subarray(1);
    expect(pooled.byteOffset % 2).toBe(1);
    const decoded = decodeLiveFrame(pooled);
    expect(decoded?.offset).toBe(4000);
    expect([...(decoded?.pcm ?? [])]).toEqual([...pcm]);
  });
});
