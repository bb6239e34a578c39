import { describe, expect, it } from "vitest";
import {
  batchRegions,
  CHECKPOINT_VERSION,
  type CheckpointBasis,
  regionsDigest,
  resumePoint,
  type TranscriptionCheckpoint,
} from "../../apps/worker/src/jobs/checkpoint.ts";

// 12 regions of 4 s with 1 s pauses: 0–4 s, 5–9 s, … 55–59 s
const regions = Array.from({ length: 12 }, (_, i) => ({ startMs: i * 5000, endMs: i * 5000 + 4000 }));

const basis: CheckpointBasis = {
  storageKey: "records/1/a.m4a",
  size: 123_456,
  samples: 60 * 16_000,
  engine: "whisper",
  model: "ggml-base.bin",
  language: "en",
  hotWords: ["Yuelu"],
  regions: regionsDigest(regions),
};

function checkpoint(over: Partial<TranscriptionCheckpoint> = {}): TranscriptionCheckpoint {
  return {
    v: CHECKPOINT_VERSION,
    basis,
    offsetMs: regions[5]!.endMs,
    regionsDone: 6,
    segments: [{ startMs: 0, endMs: 29_000, text: "the first half" }],
    attempt: 1,
    savedAt: "2026-11-26T00:00:00.000Z",
    ...over,
  };
}

describe("batchRegions", () => {
  it("cuts between regions once a batch spans the asked length, keeping every region once and in order", () => {
    const batches = batchRegions(regions, 14_000);
    expect(batches.map((b) => b.length)).toEqual([3, 3, 3, 3]);
    expect(batches.flat()).toEqual(regions);
    // the last batch may be shorter
    expect(batchRegions(regions, 22_000).map((b) => b.length)).toEqual([5, 5, 2]);
  });

  it("keeps a region longer than the batch whole, and gives no batch for no regions", () => {
    expect(batchRegions([{ startMs: 0, endMs: 90_000 }], 60_000)).toEqual([[{ startMs: 0, endMs: 90_000 }]]);
    expect(batchRegions([], 60_000)).toEqual([]);
  });
});

describe("regionsDigest", () => {
  it("changes when any region boundary moves", () => {
    const moved = regions.map((r, i) => (i === 7 ? { ...r, endMs: r.endMs + 10 } : r));
    expect(regionsDigest(moved)).not.toBe(regionsDigest(regions));
    expect(regionsDigest(regions.map((r) => ({ ...r })))).toBe(regionsDigest(regions));
  });
});

describe("resumePoint", () => {
  it("resumes a checkpoint of the same work after the regions it covers", () => {
    const point = resumePoint(checkpoint(), { ...basis, hotWords: [...basis.hotWords] }, regions);
    expect(point?.remaining).toEqual(regions.slice(6));
    expect(point?.checkpoint.segments[0]?.text).toBe("the first half");
  });

  it.each<[string, Partial<CheckpointBasis>]>([
    ["another file", { storageKey: "records/1/b.m4a" }],
    ["a file of another size", { size: 1 }],
    ["other decoded audio", { samples: 59 * 16_000 }],
    ["another engine", { engine: "sherpa" }],
    ["another model", { model: "ggml-small.bin" }],
    ["another language", { language: "auto" }],
    ["a hot word added", { hotWords: ["Yuelu", "Moonshine"] }],
    ["other hot words", { hotWords: ["Moonshine"] }],
    ["other regions", { regions: regionsDigest(regions.slice(1)) }],
  ])("ignores a checkpoint made with %s", (_, change) => {
    expect(resumePoint(checkpoint(), { ...basis, ...change }, regions)).toBeNull();
  });

  it("ignores nothing stored, another version, a foreign shape and an offset that is not a region's end", () => {
    expect(resumePoint(null, basis, regions)).toBeNull();
    expect(resumePoint({ offsetMs: 1 }, basis, regions)).toBeNull();
    expect(resumePoint({ ...checkpoint(), v: 2 }, basis, regions)).toBeNull();
    expect(resumePoint(checkpoint({ segments: [{ startMs: 0 } as never] }), basis, regions)).toBeNull();
    expect(resumePoint(checkpoint({ offsetMs: regions[5]!.endMs - 500 }), basis, regions)).toBeNull();
    expect(resumePoint(checkpoint({ regionsDone: 0, offsetMs: 0 }), basis, regions)).toBeNull();
    expect(resumePoint(checkpoint({ regionsDone: 13, offsetMs: 64_000 }), basis, regions)).toBeNull();
  });

  it("resumes with nothing left when every region was recognised (cut during diarization)", () => {
    const all = checkpoint({ regionsDone: 12, offsetMs: regions[11]!.endMs });
    expect(resumePoint(all, basis, regions)?.remaining).toEqual([]);
  });
});
