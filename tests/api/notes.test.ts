import { randomUUID } from "node:crypto";
import type { Segment } from "@yuelu/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

/** AI notes over the API (issue 24): offline chapters of the caller's own transcript. */
let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t);
  bob = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

const TOPICS = [
  ["budget", "invoice", "quarter", "revenue", "costs"],
  ["hiring", "interview", "candidates", "salary", "onboarding"],
  ["server", "database", "outage", "latency", "backup"],
];
/** A 9-minute meeting on three topics, 30 segments of 6 s each, with an empty segment in the middle. */
function meeting(): Segment[] {
  const segments: Segment[] = [];
  TOPICS.forEach((words, k) => {
    for (let i = 0; i < 30; i++) {
      const at = segments.length * 6000;
      const text =
        k === 1 && i === 3
          ? ""
          : `I think the ${words[i % 5]} and the ${words[(i + 2) % 5]} need more attention this week.`;
      segments.push({ spkName: i % 2 ? "A" : "B", startTime: at, endTime: at + 5800, text });
    }
  });
  return segments;
}

async function record(who: SignedIn, segments: Segment[] | null) {
  const rec = await t.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName: "weekly.mp3",
      format: "mp3",
      fileSize: 1000n,
      timeLen: 540,
      storageKey: `test/${randomUUID()}.mp3`,
      fileStatus: 2,
      progress: 100,
    },
  });
  if (segments) await t.db.transcript.create({ data: { fileId: rec.fileId, asrResult: segments, language: "en" } });
  return rec;
}

const chapters = (who: SignedIn | null, fileId: number) => {
  const req = t.http().get(`/voice_yuelu/text/chapters?fileId=${fileId}`).set("lang", "en");
  return who ? req.set("Cookie", who.cookie) : req;
};

describe("GET /text/chapters", () => {
  it("cuts the transcript where the topic changes, with times, titles and gists of its own text", async () => {
    const segments = meeting();
    const rec = await record(alice, segments);
    const res = await chapters(alice, rec.fileId);
    expect(res.body.status_code).toBe(1);
    const { source, chapters: list } = res.body.data;
    expect(source).toBe("offline");
    expect(list.map((c: { from: number }) => c.from)).toEqual([0, 30, 60]);
    expect(list[1]).toMatchObject({ startTime: 180_000, to: 59 });
    expect(list[2].endTime).toBe(segments.at(-1)!.endTime);
    expect(TOPICS[2]!.some((w) => list[2].title.includes(w))).toBe(true);
    for (const line of list[0].gist) expect(segments.slice(0, 30).map((s) => s.text)).toContain(line);
  });

  it("is the owner's alone: another user's record, none, no transcript → 30001; no session → 10001", async () => {
    const theirs = await record(bob, meeting());
    const none = await record(alice, null);
    for (const fileId of [theirs.fileId, none.fileId, 999_999_999]) {
      expect((await chapters(alice, fileId)).body).toMatchObject({ status_code: 30001, data: null });
    }
    expect((await chapters(null, theirs.fileId)).body.status_code).toBe(10001);
    expect((await chapters(alice, 0)).body).toMatchObject({ status_code: 10002 });
  });
});
