import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStatus, type Segment } from "@yuelu/contracts";
import { chargeTranscription, segmentsOf } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AsrEngine, AsrResult, AudioInput, TranscribeOptions } from "../../apps/worker/src/engines/asr/types.ts";
import { transcribe } from "../../apps/worker/src/jobs/transcribe.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { seedCards, seedRecord } from "../helpers/factories.ts";
import { TEST_DAY } from "../helpers/tasks.ts";
import { JFK_WAV, jfk, wavBytes } from "../helpers/voice.ts";

/**
 * People (docs/people.md, issue 45 item 4) over the API, on real human voices: the LibriVox reader of Debian's
 * pocketsphinx-testdata, the voice of alsa-utils' channel-test clips and JFK. The first recording has the reader
 * and the channel-test voice, both named by the user (one rename of all, one of a single segment); the second has
 * both again — other sentences — and JFK, whom nobody named. Transcribed by the real worker pipeline (decode,
 * speech detection, diarization, voiceprints, the domain's matching); the recogniser is a stand-in that hears one
 * sentence per speech region (the words are not what is tested here).
 */

const PS = "/usr/share/pocketsphinx/test/data/librivox";
const ALSA = "/usr/share/sounds/alsa";
const READER = ["0870", "0880", "0890", "0920", "0930"].map(
  (n) => `${PS}/sense_and_sensibility_01_austen_64kb-${n}.wav`,
);
const CHANNELS = [
  "Front_Left",
  "Front_Right",
  "Front_Center",
  "Rear_Left",
  "Rear_Right",
  "Rear_Center",
  "Side_Left",
  "Side_Right",
].map((n) => `${ALSA}/${n}.wav`);

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
let dir: string;

beforeAll(async () => {
  for (const file of [...READER, ...CHANNELS, JFK_WAV]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: apt-get install pocketsphinx-testdata alsa-utils`);
  }
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
  alice = await signIn(t);
  bob = await signIn(t);
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-people-"));
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const api = (p: string) => `/voice_yuelu${p}`;
const post = (who: SignedIn, p: string, body: object) => t.http().post(api(p)).set("Cookie", who.cookie).send(body);
const get = (who: SignedIn, p: string) => t.http().get(api(p)).set("Cookie", who.cookie);

function decode(file: string): Float32Array {
  const out = execFileSync("ffmpeg", ["-v", "error", "-i", file, "-ac", "1", "-ar", "16000", "-f", "f32le", "-"]);
  return new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4).slice();
}

type Voice = "reader" | "channels" | "jfk";
interface Recording {
  file: string;
  /** who speaks when (ms) */
  turns: { voice: Voice; startMs: number; endMs: number }[];
}

/** The clips one after another, a second of silence between two. */
async function recording(name: string, clips: [Voice, Float32Array][]): Promise<Recording> {
  const gap = 16_000;
  const total = clips.reduce((sum, [, c]) => sum + c.length + gap, gap);
  const audio = new Float32Array(total);
  const turns: Recording["turns"] = [];
  let at = gap;
  for (const [voice, clip] of clips) {
    audio.set(clip, at);
    turns.push({ voice, startMs: at / 16, endMs: (at + clip.length) / 16 });
    at += clip.length + gap;
  }
  const file = path.join(dir, `${name}.wav`);
  await writeFile(file, wavBytes(audio));
  return { file, turns };
}

/** One sentence per speech region, heard as Chinese (the language the task asks for). */
class OneSentencePerRegion implements AsrEngine {
  readonly name = "one-sentence-per-region";
  async transcribe(_audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    return {
      language: "zh",
      segments: (options.regions ?? []).map((r) => ({ startMs: r.startMs, endMs: r.endMs, text: "我们开会" })),
    };
  }
}

/** A record of `who`'s holding the recording, transcribed by the worker's pipeline; its segments. */
async function transcribed(who: SignedIn, rec: Recording, speakerCount: number) {
  if (!(await t.db.timeCard.findFirst({ where: { userId: who.userId } }))) {
    await seedCards(t.db, who.userId, [{ seconds: 36_000 }]);
  }
  const record = await seedRecord(t.db, {
    userId: who.userId,
    audioFile: rec.file,
    files: t.files,
    fileStatus: FileStatus.InQueue,
  });
  const task = await t.db.$transaction(async (tx) => {
    const created = await tx.transcriptionTask.create({
      data: { fileId: record.fileId, userId: who.userId, status: FileStatus.InQueue, language: "zh", speakerCount },
    });
    await chargeTranscription(tx, {
      userId: who.userId,
      taskId: created.id,
      seconds: record.timeLen,
      day: TEST_DAY,
      dailyLimit: 360_000,
      now: new Date(),
    });
    return created;
  });
  const engine = new OneSentencePerRegion();
  const outcome = await transcribe(task.id, {
    domain: t.domain,
    files: t.files,
    asr: () => engine,
    checkpointEveryMs: 0,
  });
  expect(outcome.status).toBe("done");
  return { fileId: record.fileId, segments: await segmentsNow(record.fileId) };
}

async function segmentsNow(fileId: number): Promise<Segment[]> {
  return segmentsOf((await t.db.transcript.findUniqueOrThrow({ where: { fileId } })).asrResult);
}

/** The speaker number holding most of `voice`'s speech in a transcript. */
function speakerOf(rec: Recording, segments: Segment[], voice: Voice): number {
  const ms = new Map<number, number>();
  for (const s of segments) {
    const turn = rec.turns.find((x) => x.startMs < s.endTime && x.endMs > s.startTime);
    if (turn?.voice !== voice || s.speaker === undefined) continue;
    ms.set(s.speaker, (ms.get(s.speaker) ?? 0) + s.endTime - s.startTime);
  }
  const best = [...ms].sort((a, b) => b[1] - a[1])[0];
  if (!best) throw new Error(`no segment of ${voice}`);
  return best[0];
}

const of = (segments: Segment[], speaker: number) => segments.filter((s) => s.speaker === speaker);

describe("people: speakers recognised across recordings", () => {
  let first: Recording;
  let second: Recording;
  let firstId: number;
  let secondId: number;
  let teacher: number;
  let lisi: number;

  it("learns the names given in a first recording (a rename of all, a rename of one segment)", {
    timeout: 120_000,
  }, async () => {
    const reader = READER.map(decode);
    const channels = CHANNELS.map(decode);
    first = await recording("first", [
      ["reader", reader[0]!],
      ["channels", channels[0]!],
      ["channels", channels[1]!],
      ["reader", reader[1]!],
      ["channels", channels[2]!],
      ["channels", channels[3]!],
    ]);
    const j = jfk();
    const third = Math.floor(j.length / 3);
    second = await recording("second", [
      ["jfk", j.slice(0, third)],
      ["reader", reader[2]!],
      ["channels", channels[4]!],
      ["channels", channels[5]!],
      ["jfk", j.slice(third, 2 * third)],
      ["reader", reader[3]!],
      ["channels", channels[6]!],
      ["channels", channels[7]!],
      ["jfk", j.slice(2 * third)],
      ["reader", reader[4]!],
    ]);

    const one = await transcribed(alice, first, 2);
    firstId = one.fileId;
    const readerSpeaker = speakerOf(first, one.segments, "reader");
    const channelSpeaker = speakerOf(first, one.segments, "channels");
    expect(readerSpeaker).not.toBe(channelSpeaker);
    // nobody is known yet: default labels, no person
    expect(one.segments.every((s) => s.personId === undefined && /^说话人\d$/.test(s.spkName))).toBe(true);

    const readerAt = one.segments.findIndex((s) => s.speaker === readerSpeaker);
    const all = await post(alice, "/text/update_para", {
      fileId: firstId,
      index: readerAt,
      spkName: "王老师",
      renameAll: 1,
    });
    expect(all.body.status_code, all.body.status_msg).toBe(1);
    const channelAt = one.segments.findIndex((s) => s.speaker === channelSpeaker);
    const single = await post(alice, "/text/update_para", { fileId: firstId, index: channelAt, spkName: "李四" });
    expect(single.body.status_code, single.body.status_msg).toBe(1);

    const list = await get(alice, "/api/v1/people/list");
    expect(list.body.status_code).toBe(1);
    expect(list.body.data.remember).toBe(true);
    expect(list.body.data.list.map((p: { name: string }) => p.name).sort()).toEqual(["李四", "王老师"]);
    for (const p of list.body.data.list) expect(p).toMatchObject({ recordings: 1, suggested: 0 });
    teacher = list.body.data.list.find((p: { name: string }) => p.name === "王老师").personId;
    lisi = list.body.data.list.find((p: { name: string }) => p.name === "李四").personId;
    // no voiceprint in any answer
    expect(JSON.stringify(list.body)).not.toMatch(/centroid|vector/);

    const stored = await segmentsNow(firstId);
    expect(
      of(stored, readerSpeaker).every((s) => s.spkName === "王老师" && s.personId === teacher && !s.suggested),
    ).toBe(true);
    expect(stored[channelAt]).toMatchObject({ spkName: "李四", personId: lisi });
  });

  it("names the known voices of a second recording (suggested) and never the unknown one", {
    timeout: 120_000,
  }, async () => {
    const two = await transcribed(alice, second, 3);
    secondId = two.fileId;
    const r = speakerOf(second, two.segments, "reader");
    const c = speakerOf(second, two.segments, "channels");
    const j = speakerOf(second, two.segments, "jfk");
    expect(new Set([r, c, j]).size).toBe(3);
    expect(of(two.segments, r).every((s) => s.spkName === "王老师" && s.personId === teacher && s.suggested)).toBe(
      true,
    );
    expect(of(two.segments, c).every((s) => s.spkName === "李四" && s.personId === lisi && s.suggested)).toBe(true);
    for (const s of of(two.segments, j)) {
      expect(s.personId).toBeUndefined();
      expect(s.spkName).toBe(`说话人${j + 1}`);
    }
    // get_text carries the marks (and no voiceprint)
    const text = await get(alice, `/api/v2/audio/text/get_text?fileId=${secondId}`);
    const read = JSON.parse(text.body.data.asrResult) as Segment[];
    expect(read.find((s) => s.speaker === r)).toMatchObject({ spkName: "王老师", personId: teacher, suggested: true });
    const list = await get(alice, "/api/v1/people/list");
    for (const p of list.body.data.list) expect(p).toMatchObject({ recordings: 2, suggested: 1 });

    // one click: confirmed (the print joins the person), undone (the label back, the match forgotten)
    const yes = await post(alice, "/api/v1/people/confirm", { fileId: secondId, speaker: r, accept: true });
    expect(yes.body.status_code, yes.body.status_msg).toBe(1);
    expect(yes.body.data).toMatchObject({ accepted: true, spkName: "王老师", personId: teacher });
    const no = await post(alice, "/api/v1/people/confirm", { fileId: secondId, speaker: c, accept: false });
    expect(no.body.data).toMatchObject({ accepted: false, spkName: `说话人${c + 1}` });
    const after = await segmentsNow(secondId);
    expect(of(after, r).every((s) => s.personId === teacher && !s.suggested)).toBe(true);
    expect(of(after, c).every((s) => s.personId === undefined && s.spkName === `说话人${c + 1}`)).toBe(true);
    const again = await post(alice, "/api/v1/people/confirm", { fileId: secondId, speaker: c, accept: true });
    expect(again.body).toMatchObject({ status_code: 10002 });
    const prints = await t.db.speakerPrint.findMany({ where: { fileId: secondId }, orderBy: { speaker: "asc" } });
    expect(prints.find((p) => p.speaker === r)).toMatchObject({ personId: teacher, suggested: false });
    expect(prints.find((p) => p.speaker === c)).toMatchObject({ personId: null });
  });

  it("keeps one account's people to itself", async () => {
    const list = await get(bob, "/api/v1/people/list");
    expect(list.body.data).toMatchObject({ total: 0, list: [] });
    for (const [p, body] of [
      ["/api/v1/people/delete", { personId: teacher }],
      ["/api/v1/people/rename", { personId: teacher, name: "张三" }],
    ] as const) {
      const res = await post(bob, p, body);
      expect(res.body).toMatchObject({ status_code: 10002 });
    }
    const confirm = await post(bob, "/api/v1/people/confirm", { fileId: secondId, speaker: 0, accept: true });
    expect(confirm.body.status_code).toBe(30001);
    expect(await t.db.person.count({ where: { id: teacher } })).toBe(1);
  });

  it("carries no voiceprint into exports, share pages or webhooks", async () => {
    const hook = await post(alice, "/api/v1/webhooks/create", {
      url: "http://127.0.0.1:9/hook",
      events: ["transcript.updated"],
    });
    expect(hook.body.status_code, hook.body.status_msg).toBe(1);
    // a rename after the endpoint exists: an outbox delivery is written with it
    await post(alice, "/api/v1/people/rename", { personId: teacher, name: "王明" });
    const stored = await segmentsNow(secondId);
    expect(stored.filter((s) => s.personId === teacher).every((s) => s.spkName === "王明")).toBe(true);
    const deliveries = await t.db.webhookDelivery.findMany({ where: { userId: alice.userId } });
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) expect(JSON.stringify(d.payload)).not.toMatch(/personId|centroid|vector|suggested/);

    for (const kind of ["txt", "srt", "vtt"]) {
      const res = await get(alice, `/api/v3/audio/text/export_${kind}?fileId=${secondId}&withSpeaker=1`);
      expect(res.status).toBe(200);
      const text = res.text;
      expect(text).toContain("王明");
      expect(text).not.toMatch(/personId|centroid|vector|suggested/);
    }
    const link = await get(alice, `/text/generate_url?fileId=${secondId}`);
    expect(link.body.status_code, link.body.status_msg).toBe(1);
    const page = await t.http().get(new URL(link.body.data.url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain("王明");
    expect(page.text).not.toMatch(/personId|centroid|vector|suggested/);
  });

  it("forgets a person at once: their voiceprint and every print of theirs deleted", async () => {
    expect(await t.db.speakerPrint.count({ where: { personId: teacher } })).toBe(2);
    const res = await post(alice, "/api/v1/people/delete", { personId: teacher });
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    expect(await t.db.person.count({ where: { id: teacher } })).toBe(0);
    expect(await t.db.speakerPrint.count({ where: { personId: teacher } })).toBe(0);
    expect(await t.db.speakerPrint.count({ where: { fileId: { in: [firstId, secondId] } } })).toBe(3);
    // the names the user gave stay; no segment points at the forgotten person
    const one = await segmentsNow(firstId);
    expect(one.some((s) => s.spkName === "王明")).toBe(true);
    expect([...one, ...(await segmentsNow(secondId))].some((s) => s.personId === teacher)).toBe(false);
    const list = await get(alice, "/api/v1/people/list");
    expect(list.body.data.list.map((p: { personId: number }) => p.personId)).toEqual([lisi]);
  });

  it("remembers nothing with remembering off: prints deleted, nothing kept or matched, until it is on again", {
    timeout: 120_000,
  }, async () => {
    const off = await post(alice, "/api/v1/people/settings", { remember: false });
    expect(off.body).toMatchObject({ status_code: 1, data: { remember: false } });
    expect(await t.db.person.count({ where: { userId: alice.userId } })).toBe(0);
    expect(await t.db.speakerPrint.count({ where: { userId: alice.userId } })).toBe(0);

    const three = await transcribed(alice, first, 2);
    expect(await t.db.speakerPrint.count({ where: { fileId: three.fileId } })).toBe(0);
    expect(three.segments.every((s) => s.personId === undefined)).toBe(true);
    // a name given now teaches nothing
    await post(alice, "/text/update_para", { fileId: three.fileId, index: 0, spkName: "赵六", renameAll: 1 });
    const list = await get(alice, "/api/v1/people/list");
    expect(list.body.data).toMatchObject({ remember: false, total: 0 });

    const on = await post(alice, "/api/v1/people/settings", { remember: true });
    expect(on.body.data).toEqual({ remember: true });
    const four = await transcribed(alice, first, 2);
    expect(await t.db.speakerPrint.count({ where: { fileId: four.fileId } })).toBe(2);
  });
});
