import { describe, expect, it } from "vitest";
import { peaksOf } from "./peaks.ts";

describe("a waveform's peaks", () => {
  it("mixes the channels and keeps each slice's largest absolute value", () => {
    const left = new Float32Array([0, 0.5, -1, 0.25, 0, 0, 0.1, -0.2]);
    const right = new Float32Array([0, 0.5, -1, 0.25, 0, 0, 0.1, -0.2]);
    expect(peaksOf([left, right], 4)).toEqual([0.5, 1, 0, expect.closeTo(0.2, 5)]);
    expect(peaksOf([new Float32Array(0)], 4)).toEqual([]);
  });
});
