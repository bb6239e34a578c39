import {
  GAUSS_DIMS,
  GAUSS_MODEL,
  GAUSS_RECORDING_THRESHOLD,
  GAUSS_THRESHOLD,
  matchSpeakers,
  printSimilarity,
} from "@yuelu/domain/people/prints";
import { describe, expect, it } from "vitest";

/**
 * Floor prints made to measure: a voice whose frames have unit covariance and a mean `distance` away from the
 * origin along c1. Two such prints compare at about −½·log(1 + d²/4) nats (the GLR of equal covariances; the
 * covariances are lightly regularised), so the distance chooses the similarity.
 */
function voiceAt(distance: number, axis = 0): number[] {
  const n = 2000;
  const mean = new Array<number>(GAUSS_DIMS).fill(0);
  mean[axis] = distance;
  const out = [n, ...mean.map((m) => m * n)];
  for (let a = 0; a < GAUSS_DIMS; a++)
    for (let b = 0; b <= a; b++) out.push(n * ((a === b ? 1 : 0) + mean[a]! * mean[b]!));
  return out;
}
/** the distance that gives `similarity` */
const distanceFor = (similarity: number) => Math.sqrt(4 * (Math.exp(-2 * similarity) - 1));

const person = (id: number, vector: number[]) => ({ id, model: GAUSS_MODEL, centroid: vector });
const speaker = (n: number, vector: number[]) => ({ speaker: n, model: GAUSS_MODEL, vector, speechMs: 12_000 });

describe("matching a recording's speakers with the user's people (floor prints)", () => {
  const anna = voiceAt(0);
  const nearMiss = -1.05; // under the plain bar, over the recording's
  it("makes prints at the similarity asked for", () => {
    expect(printSimilarity(GAUSS_MODEL, anna, voiceAt(distanceFor(nearMiss)))).toBeCloseTo(nearMiss, 1);
    expect(nearMiss).toBeLessThan(GAUSS_THRESHOLD);
    expect(nearMiss).toBeGreaterThan(GAUSS_RECORDING_THRESHOLD);
  });

  it("names a near miss that the recording singles out: the closest of its unnamed voices, by a margin", () => {
    const speakers = [speaker(0, voiceAt(distanceFor(nearMiss))), speaker(1, voiceAt(distanceFor(-2), 1))];
    expect(matchSpeakers(speakers, [person(7, anna)]).get(0)?.personId).toBe(7);
    expect(matchSpeakers(speakers, [person(7, anna)]).has(1)).toBe(false);
  });

  it("never names a lone unnamed speaker under the plain bar: it has no other voice to stand out from", () => {
    expect(matchSpeakers([speaker(0, voiceAt(distanceFor(nearMiss)))], [person(7, anna)]).size).toBe(0);
    // the other speaker already named as someone else leaves it alone too
    const ben = voiceAt(9, 2);
    const named = matchSpeakers(
      [speaker(0, voiceAt(distanceFor(nearMiss))), speaker(1, ben)],
      [person(7, anna), person(8, ben)],
    );
    expect(named.get(1)?.personId).toBe(8);
    expect(named.has(0)).toBe(false);
  });

  it("leaves both unnamed when two unnamed voices are about as close to the person", () => {
    const speakers = [speaker(0, voiceAt(distanceFor(nearMiss))), speaker(1, voiceAt(distanceFor(-1.2), 1))];
    expect(matchSpeakers(speakers, [person(7, anna)]).size).toBe(0);
  });

  it("leaves it unnamed when another person is about as close to it", () => {
    const speakers = [speaker(0, voiceAt(distanceFor(nearMiss))), speaker(1, voiceAt(distanceFor(-2), 1))];
    // a second person on the far side of the speaker: as close to it as the first person is
    const twin = voiceAt(2 * distanceFor(nearMiss));
    expect(printSimilarity(GAUSS_MODEL, speakers[0]!.vector, twin)).toBeCloseTo(nearMiss, 1);
    expect(matchSpeakers(speakers, [person(7, anna), person(9, twin)]).size).toBe(0);
  });

  it("never goes under the recording's bar, nor counts a speaker with too little speech", () => {
    const far = [speaker(0, voiceAt(distanceFor(-1.3))), speaker(1, voiceAt(distanceFor(-2.5), 1))];
    expect(matchSpeakers(far, [person(7, anna)]).size).toBe(0);
    const short = [
      { ...speaker(0, voiceAt(distanceFor(nearMiss))), speechMs: 2000 },
      speaker(1, voiceAt(distanceFor(-2), 1)),
    ];
    expect(matchSpeakers(short, [person(7, anna)]).size).toBe(0);
  });
});
