import path from "node:path";
import { matchSpeakers } from "@yuelu/domain/people/prints";
import { describe, expect, it } from "vitest";
import { followKnownVoices } from "../../apps/worker/src/speech/known-speakers.ts";
import { mfccGaussEmbedder, speakerVoices } from "../../apps/worker/src/speech/speaker-prints.ts";
import { floats, JFK, librivox, PS, recording } from "../helpers/real-voices.ts";

// The LibriVox reader and JFK are known people; the "go forward" speaker is a voice nobody named.
const RATE = 16_000;

/** One voice's print, as a person's voiceprint would be made from a recording of them alone. */
function enrol(id: number, clips: Float32Array[]) {
  const { pcm, segments, profile } = recording(clips);
  const [voice] = speakerVoices(
    pcm,
    segments,
    segments.map(() => 0),
    profile,
  );
  if (!voice) throw new Error("no print");
  return { id, model: voice.model, centroid: voice.vector };
}

describe("speakers told apart by the voices the user named (speech/known-speakers.ts)", () => {
  it("keeps an unknown voice that diarization merged with two known ones apart from them, and unnamed", {
    timeout: 60_000,
  }, async () => {
    const jfk = await floats(JFK);
    const half = Math.floor(jfk.length / 2);
    const people = [enrol(1, [await librivox("0870"), await librivox("0880")]), enrol(2, [jfk.slice(0, half)])];
    const unknownA = await floats(path.join(PS, "goforward.raw"));
    const unknownB = await floats(path.join(PS, "something.raw"));
    const clips = [await librivox("0890"), unknownA, jfk.slice(half), await librivox("0920"), unknownB];
    const { pcm, segments, profile } = recording(clips);
    // diarization heard one voice in all of it
    const merged = segments.map(() => 0);
    const speakers = followKnownVoices(pcm, segments, merged, profile, mfccGaussEmbedder, people);

    const [libri1, unk1, kennedy, libri2, unk2] = speakers;
    expect(libri1).toBe(libri2);
    expect(unk1).toBe(unk2);
    expect(new Set([libri1, unk1, kennedy]).size).toBe(3);
    // matched as the product does (the domain's rememberSpeakers): the known voices named, the unknown not
    const names = matchSpeakers(speakerVoices(pcm, segments, speakers, profile), people, 0);
    expect(names.get(libri1!)?.personId).toBe(1);
    // (JFK was named from 5.5 s of speech: too little for the whole-speaker bar to be sure; never another name)
    expect([2, undefined]).toContain(names.get(kennedy!)?.personId);
    expect(names.has(unk1!)).toBe(false);
  });

  it("keeps an unknown voice that diarization merged with one known voice apart from it, and unnamed", {
    timeout: 60_000,
  }, async () => {
    const people = [enrol(1, [await librivox("0870"), await librivox("0880")])];
    const raw = (f: string) => floats(path.join(PS, f));
    const clips = [
      await librivox("0890"),
      await raw("goforward.raw"),
      await librivox("0920"),
      await raw("something.raw"),
      await librivox("0930"),
      await raw("numbers.raw"),
    ];
    const { pcm, segments, profile } = recording(clips);
    const speakers = followKnownVoices(
      pcm,
      segments,
      segments.map(() => 0),
      profile,
      mfccGaussEmbedder,
      people,
    );
    const [l1, u1, l2, u2, l3, u3] = speakers;
    expect(new Set([l1, l2, l3]).size).toBe(1);
    expect(new Set([u1, u2, u3]).size).toBe(1);
    expect(l1).not.toBe(u1);
    const names = matchSpeakers(speakerVoices(pcm, segments, speakers, profile), people, 0);
    expect(names.get(l1!)?.personId).toBe(1);
    expect(names.has(u1!)).toBe(false);
  });

  it("never splits a known voice that diarization heard as one speaker, where only some of its pieces are told", {
    timeout: 60_000,
  }, async () => {
    const people = [enrol(1, [await librivox("0870"), await librivox("0880")])];
    // the reader's three passages in ~2 s pieces (one sounds like him on its own, another not), and a second voice
    const pieces = (clip: Float32Array) =>
      Array.from({ length: Math.floor(clip.length / (2 * RATE)) }, (_, i) =>
        clip.slice(i * 2 * RATE, (i + 1) * 2 * RATE),
      );
    const reader = [
      ...pieces(await librivox("0890")),
      ...pieces(await librivox("0920")),
      ...pieces(await librivox("0930")),
    ];
    const other = await floats(path.join(PS, "goforward.raw"));
    const { pcm, segments, profile } = recording([...reader, other]);
    const diarized = [...reader.map(() => 0), 1];
    const speakers = followKnownVoices(pcm, segments, diarized, profile, mfccGaussEmbedder, people);
    expect(new Set(speakers.slice(0, reader.length)).size).toBe(1);
    expect(speakers[reader.length]).not.toBe(speakers[0]);
  });

  it("changes nothing without known people, or with people of another model", async () => {
    const { pcm, segments, profile } = recording([await librivox("0890"), await librivox("0920")]);
    expect(followKnownVoices(pcm, segments, [0, 1], profile, mfccGaussEmbedder, [])).toEqual([0, 1]);
    const other = [{ id: 9, model: "sherpa:other.onnx", centroid: [0.1, 0.2, 0.3] }];
    expect(followKnownVoices(pcm, segments, [1, 0], profile, mfccGaussEmbedder, other)).toEqual([1, 0]);
  });
});
