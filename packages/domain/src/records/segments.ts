import type { Segment } from "@yuelu/contracts";

const num = (v: unknown, fallback = 0): number =>
  typeof v === "number" && Number.isFinite(v) ? Math.max(0, Math.round(v)) : fallback;
const str = (v: unknown): string => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));

/**
 * The stored asrResult as segments. The worker and update_text store a JSON array; anything else
 * a row may hold (a JSON text, missing fields) is read leniently rather than failing the page.
 */
export function segmentsOf(stored: unknown): Segment[] {
  let value = stored;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  return value
    .filter((s): s is Record<string, unknown> => typeof s === "object" && s !== null)
    .map((s) => {
      const startTime = num(s.startTime);
      const segment: Segment = {
        spkName: str(s.spkName),
        startTime,
        endTime: Math.max(startTime, num(s.endTime, startTime)),
        text: str(s.text),
      };
      if (Array.isArray(s.words)) {
        segment.words = s.words
          .filter((w): w is Record<string, unknown> => typeof w === "object" && w !== null)
          .map((w) => ({ text: str(w.text), startTime: num(w.startTime), endTime: num(w.endTime) }));
      }
      // people (docs/people.md): the speaker's number and its person's marks
      if (typeof s.speaker === "number" && Number.isInteger(s.speaker) && s.speaker >= 0) segment.speaker = s.speaker;
      if (typeof s.personId === "number" && Number.isInteger(s.personId)) segment.personId = s.personId;
      if (s.suggested === true && segment.personId !== undefined) segment.suggested = true;
      return segment;
    });
}
