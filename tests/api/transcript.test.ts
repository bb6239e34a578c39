import { randomUUID } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import type { Segment } from "@yuelu/contracts";
import { businessDay } from "@yuelu/domain";
import type supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentDisposition } from "../../apps/api/src/lib/content-disposition.ts";
import { clock, cueTime, toSrt, toTxt, toVtt } from "../../apps/api/src/modules/transcript/exports.ts";
import {
  nearlySame,
  splitSentences,
  summarize,
  summarizeSentences,
  summaryLength,
  termsOf,
} from "../../packages/domain/src/notes/summary.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

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

const api = (path: string) => `/voice_yuelu${path}`;

const SEGMENTS: Segment[] = [
  { spkName: "说话人1", startTime: 0, endTime: 4200, text: "大家好，今天我们讨论语音识别项目的进度。" },
  { spkName: "说话人2", startTime: 4200, endTime: 9050, text: "模型训练已完成 <b>80%</b> & 还有测试。" },
  { spkName: "说话人1", startTime: 9050, endTime: 12_000, text: "好的，下周发布。" },
  { spkName: "说话人2", startTime: 3_723_456, endTime: 3_725_500, text: "散会。" },
];

async function record(
  who: SignedIn,
  options: { segments?: Segment[] | null; fileName?: string; deletedAt?: Date; abstracts?: string } = {},
) {
  const rec = await t.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName: options.fileName ?? "周会 记录.mp3",
      format: "mp3",
      fileSize: 1000n,
      timeLen: 3726,
      storageKey: `test/${randomUUID()}.mp3`,
      fileStatus: 2,
      progress: 100,
      deletedAt: options.deletedAt ?? null,
    },
  });
  if (options.segments !== null) {
    await t.db.transcript.create({
      data: {
        fileId: rec.fileId,
        asrResult: options.segments ?? SEGMENTS,
        language: "zh",
        abstracts: options.abstracts ?? "",
      },
    });
  }
  return rec;
}

const get = (who: SignedIn, path: string) => t.http().get(api(path)).set("Cookie", who.cookie);
const post = (who: SignedIn, path: string, body: Record<string, unknown>) =>
  t.http().post(api(path)).set("Cookie", who.cookie).send(body);
const storedSegments = async (fileId: number) =>
  (await t.db.transcript.findUniqueOrThrow({ where: { fileId } })).asrResult as unknown as Segment[];

/** Reads a binary response body as a Buffer. */
const binary = (req: supertest.Test) =>
  req.buffer(true).parse((res, callback) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => callback(null, Buffer.concat(chunks)));
  });

/** The entries of a zip archive (stored or deflated), read from its central directory. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("not a zip");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("bad central directory");
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + size);
    files.set(name, method === 0 ? data : inflateRawSync(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
const docxText = (buffer: Buffer) => {
  const xml = unzip(buffer).get("word/document.xml")?.toString("utf8");
  if (!xml) throw new Error("no word/document.xml");
  return xml;
};

describe("sign-in is required", () => {
  it.each([
    ["GET", "/api/v2/audio/text/get_text?fileId=1"],
    ["POST", "/api/v1/audio/text/update_text"],
    ["PATCH", "/api/v1/audio/text/update_text"],
    ["POST", "/text/update_para"],
    ["GET", "/api/v1/hotWords"],
    ["PUT", "/api/v1/hotWords"],
    ["POST", "/text/update_abstracts"],
    ["GET", "/text/abstracts_export_word?fileId=1"],
    ["GET", "/api/v3/audio/text/export_txt?fileId=1"],
    ["GET", "/api/v3/audio/text/export_word?fileId=1"],
    ["GET", "/api/v3/audio/text/export_srt?fileId=1"],
    ["GET", "/api/v3/audio/text/export_vtt?fileId=1"],
    ["GET", "/text/get_text?fileId=1"],
    ["POST", "/text/update_text"],
    ["GET", "/text/generate_url?fileId=1"],
    ["GET", "/text/rich_export_word?fileId=1"],
  ])("%s %s without a session → 10001", async (method, path) => {
    const req = t.http()[method.toLowerCase() as "get" | "post" | "patch" | "put"](api(path));
    const res = method === "GET" ? await req : await req.send({ fileId: 1 });
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });
});

describe("get_text", () => {
  it("answers the transcript detail; asrResult is the JSON text of the segments", async () => {
    const rec = await record(alice, { abstracts: "摘要" });
    for (const path of ["/api/v2/audio/text/get_text", "/text/get_text"]) {
      const res = await get(alice, `${path}?fileId=${rec.fileId}&timeStamp=123`);
      expect(res.body.status_code).toBe(1);
      expect(res.body.data).toMatchObject({
        fileId: rec.fileId,
        fileName: "周会 记录.mp3",
        timeLen: 3726,
        language: "zh",
        abstracts: "摘要",
        updateTime: expect.any(Number),
      });
      expect(Math.abs(res.body.data.updateTime - Date.now() / 1000)).toBeLessThan(60);
      expect(JSON.parse(res.body.data.asrResult)).toEqual(SEGMENTS);
    }
  });

  it("says what the speech front end did: null before it existed, its notes after", async () => {
    const rec = await record(alice);
    const url = `/api/v2/audio/text/get_text?fileId=${rec.fileId}`;
    expect((await get(alice, url)).body.data.audio).toBeNull();
    await t.db.transcript.update({
      where: { fileId: rec.fileId },
      data: {
        audioReport: {
          denoised: true,
          noise: "pink",
          narrowBand: true,
          gainDb: 12.4,
          facts: {
            snrDb: 6.2,
            bandwidthHz: 3406,
            noiseDb: -40,
            speechDb: -33.8,
            noiseTiltDbPerOctave: -3,
            noiseSpreadDb: 2,
          },
        },
      },
    });
    // a report from before reverberation was measured reads as not dereverberated, RT60 unknown
    expect((await get(alice, url)).body.data.audio).toEqual({
      denoised: true,
      noise: "pink",
      dereverberated: false,
      narrowBand: true,
      gainDb: 12.4,
      snrDb: 6.2,
      bandwidthHz: 3406,
      rt60Ms: 0,
    });
    await t.db.transcript.update({
      where: { fileId: rec.fileId },
      data: {
        audioReport: {
          denoised: false,
          dereverberated: true,
          narrowBand: false,
          gainDb: 0,
          facts: { snrDb: 30.7, bandwidthHz: 7900, rt60Ms: 348.4 },
        },
      },
    });
    expect((await get(alice, url)).body.data.audio).toMatchObject({
      dereverberated: true,
      rt60Ms: 348,
      denoised: false,
    });
  });

  it("leaves word timings out unless withWords=1, and reads odd stored shapes leniently", async () => {
    const words = [
      { text: "第一", startTime: 0, endTime: 400 },
      { text: "句", startTime: 400, endTime: 900 },
    ];
    const withTimings = await record(alice, { segments: [{ ...SEGMENTS[0]!, words }, SEGMENTS[1]!] });
    const url = `/api/v2/audio/text/get_text?fileId=${withTimings.fileId}`;
    const plain = JSON.parse((await get(alice, url)).body.data.asrResult);
    expect(plain).toEqual([SEGMENTS[0], SEGMENTS[1]]);
    const full = JSON.parse((await get(alice, `${url}&withWords=1`)).body.data.asrResult);
    expect(full[0].words).toEqual(words);
    // a row written as a JSON text, or holding stray non-objects, still opens
    const asText = await record(alice, { segments: [] });
    await t.db.transcript.update({
      where: { fileId: asText.fileId },
      data: { asrResult: JSON.stringify([{ ...SEGMENTS[0]!, words }]) },
    });
    const fromText = await get(alice, `/api/v2/audio/text/get_text?fileId=${asText.fileId}`);
    expect(JSON.parse(fromText.body.data.asrResult)).toEqual([SEGMENTS[0]]);
    await t.db.transcript.update({ where: { fileId: asText.fileId }, data: { asrResult: [1, SEGMENTS[1]!, null] } });
    const stray = await get(alice, `/api/v2/audio/text/get_text?fileId=${asText.fileId}`);
    expect(JSON.parse(stray.body.data.asrResult)).toEqual([SEGMENTS[1]]);
  });

  it("another user's record, one in the bin, one without a transcript, or none → 30001", async () => {
    const theirs = await record(bob);
    const binned = await record(alice, { deletedAt: new Date() });
    const untranscribed = await record(alice, { segments: null });
    for (const fileId of [theirs.fileId, binned.fileId, untranscribed.fileId, 2_000_000_000]) {
      const res = await get(alice, `/api/v2/audio/text/get_text?fileId=${fileId}`);
      expect(res.body).toMatchObject({ status_code: 30001, data: null });
    }
  });

  it.each(["abc", "1%20OR%201=1", "-1", ""])("fileId=%s → 10002", async (fileId) => {
    const res = await get(alice, `/api/v2/audio/text/get_text?fileId=${fileId}`);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("fileId");
  });
});

describe("update_text", () => {
  const edited: Segment[] = [
    { spkName: "张三", startTime: 0, endTime: 1500, text: "第一句。" },
    {
      spkName: "Speaker 2",
      startTime: 1500,
      endTime: 3000,
      text: "<script>alert('x')</script>'; DROP TABLE transcripts; --",
    },
  ];

  it("replaces every segment (PATCH with the JSON text, POST with the array, and the rich-text alias)", async () => {
    const rec = await record(alice);
    const patch = await t
      .http()
      .patch(api("/api/v1/audio/text/update_text"))
      .set("Cookie", alice.cookie)
      .send({ fileId: rec.fileId, asrResult: JSON.stringify(edited) });
    expect(patch.body).toMatchObject({ status_code: 1, data: { fileId: rec.fileId, segments: 2 } });
    expect(await storedSegments(rec.fileId)).toEqual(edited);

    const withExtra = [{ ...edited[0], id: "client-only", startTime: 10.4, endTime: undefined }];
    const viaPost = await post(alice, "/api/v1/audio/text/update_text", { fileId: rec.fileId, asrResult: withExtra });
    expect(viaPost.body.status_code).toBe(1);
    expect(await storedSegments(rec.fileId)).toEqual([
      { spkName: "张三", startTime: 10, endTime: 10, text: "第一句。" },
    ]);

    const alias = await post(alice, "/text/update_text", { fileId: rec.fileId, asrResult: edited });
    expect(alias.body.status_code).toBe(1);
    const text = await get(alice, `/api/v2/audio/text/get_text?fileId=${rec.fileId}&lang=en`);
    expect(JSON.parse(text.body.data.asrResult)).toEqual(edited);
  });

  it("takes a large transcript (20 000 segments)", async () => {
    const rec = await record(alice);
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      spkName: `说话人${(i % 3) + 1}`,
      startTime: i * 1000,
      endTime: i * 1000 + 900,
      text: `第${i}句话，内容比较长一些用来测试大小。`,
    }));
    const res = await post(alice, "/api/v1/audio/text/update_text", { fileId: rec.fileId, asrResult: many });
    expect(res.body).toMatchObject({ status_code: 1, data: { segments: 20_000 } });
  });

  it.each([
    ["asrResult missing", {}, "asrResult"],
    ["asrResult not JSON", { asrResult: "[{oops" }, "asrResult（不是有效的 JSON）"],
    ["asrResult an object", { asrResult: '{"a":1}' }, "asrResult"],
    ["asrResult a number", { asrResult: 5 }, "asrResult"],
    ["a segment without text", { asrResult: [{ spkName: "A", startTime: 0 }] }, "asrResult.0.text"],
    ["text over 5000", { asrResult: [{ spkName: "A", startTime: 0, text: "字".repeat(5001) }] }, "asrResult.0.text"],
    ["negative time", { asrResult: [{ spkName: "A", startTime: -1, text: "x" }] }, "asrResult.0.startTime"],
    ["time a string", { asrResult: [{ spkName: "A", startTime: "soon", text: "x" }] }, "asrResult.0.startTime"],
    ["speaker with a symbol", { asrResult: [{ spkName: "A-B", startTime: 0, text: "x" }] }, "asrResult.0.spkName"],
    ["speaker with HTML", { asrResult: [{ spkName: "<b>x</b>", startTime: 0, text: "x" }] }, "asrResult.0.spkName"],
    [
      "speaker of 11",
      { asrResult: [{ spkName: "一二三四五六七八九十一", startTime: 0, text: "x" }] },
      "asrResult.0.spkName",
    ],
    [
      "20 001 segments",
      { asrResult: Array.from({ length: 20_001 }, () => ({ spkName: "A", startTime: 0, text: "" })) },
      "asrResult",
    ],
  ])("%s → 10002 naming the field, nothing stored", async (_name, body, field) => {
    const rec = await record(alice);
    const res = await post(alice, "/api/v1/audio/text/update_text", { fileId: rec.fileId, ...body });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
    expect(await storedSegments(rec.fileId)).toEqual(SEGMENTS);
  });

  it("another user's record → 30001, theirs untouched", async () => {
    const theirs = await record(bob);
    const res = await post(alice, "/api/v1/audio/text/update_text", { fileId: theirs.fileId, asrResult: edited });
    expect(res.body.status_code).toBe(30001);
    expect(await storedSegments(theirs.fileId)).toEqual(SEGMENTS);
  });
});

describe("update_para (speaker rename, spec §5)", () => {
  const para = (who: SignedIn, body: Record<string, unknown>) => post(who, "/text/update_para", body);

  it("renames one segment's speaker, or with renameAll every segment carrying the old name", async () => {
    const rec = await record(alice);
    const one = await para(alice, { fileId: rec.fileId, index: 0, spkName: "王老师" });
    expect(one.body.status_code).toBe(1);
    expect(one.body.data).toMatchObject({
      fileId: rec.fileId,
      index: 0,
      oldName: "说话人1",
      newName: "王老师",
      renameAll: false,
      renamed: 1,
      speakers: ["王老师", "说话人2", "说话人1"],
      segment: { ...SEGMENTS[0], spkName: "王老师" },
    });
    expect((await storedSegments(rec.fileId)).map((s) => s.spkName)).toEqual([
      "王老师",
      "说话人2",
      "说话人1",
      "说话人2",
    ]);

    const all = await para(alice, { fileId: rec.fileId, index: "1", spkName: "Li2", renameAll: "true" });
    expect(all.body.data).toMatchObject({ oldName: "说话人2", newName: "Li2", renameAll: true, renamed: 2 });
    expect((await storedSegments(rec.fileId)).map((s) => s.spkName)).toEqual(["王老师", "Li2", "说话人1", "Li2"]);
  });

  it("accepts up to 10 characters of Han, English letters and digits", async () => {
    const rec = await record(alice);
    for (const name of ["一二三四五六七八九十", "AbcDefGh12", "𠀀字", "Z"]) {
      const res = await para(alice, { fileId: rec.fileId, index: 2, spkName: name });
      expect(res.body.status_code).toBe(1);
      expect(res.body.data.newName).toBe(name);
    }
  });

  it.each([
    "张 三",
    "a_b",
    "Tom!",
    "<b>x</b>",
    "'; DROP TABLE transcripts; --",
    "一二三四五六七八九十一",
    "abcdefghijk",
    "ｆｕｌｌ",
    "😀",
    "x".repeat(5000),
  ])("refuses %j with 10002 naming spkName", async (name) => {
    const rec = await record(alice);
    const res = await para(alice, { fileId: rec.fileId, index: 0, spkName: name, renameAll: true });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("spkName");
    expect(await storedSegments(rec.fileId)).toEqual(SEGMENTS);
  });

  it("an empty name or the old name changes nothing", async () => {
    const rec = await record(alice);
    for (const spkName of ["", "  ", "说话人1"]) {
      const res = await para(alice, { fileId: rec.fileId, index: 0, spkName, renameAll: true });
      expect(res.body.data).toMatchObject({ oldName: "说话人1", newName: "说话人1", renamed: 0 });
    }
    expect(await storedSegments(rec.fileId)).toEqual(SEGMENTS);
  });

  it("edits a segment's text", async () => {
    const rec = await record(alice);
    const res = await para(alice, { fileId: rec.fileId, index: 3, text: "会议结束 <i>bye</i>" });
    expect(res.body.data.segment).toEqual({ ...SEGMENTS[3], text: "会议结束 <i>bye</i>" });
    expect((await storedSegments(rec.fileId))[3]?.text).toBe("会议结束 <i>bye</i>");
  });

  it.each([
    ["index past the end", { index: 4, spkName: "A" }, "index"],
    ["index negative", { index: -1, spkName: "A" }, "index"],
    ["index a word", { index: "first", spkName: "A" }, "index"],
    ["text over 5000", { index: 0, text: "x".repeat(5001) }, "text"],
    ["renameAll not a flag", { index: 0, spkName: "A", renameAll: "maybe" }, "renameAll"],
  ])("%s → 10002", async (_name, body, field) => {
    const rec = await record(alice);
    const res = await para(alice, { fileId: rec.fileId, ...body });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
  });

  it("parallel edits of different segments are all kept", async () => {
    const rec = await record(alice);
    const names = ["甲", "乙", "丙", "丁"];
    const answers = await Promise.all(
      names.map((spkName, index) => para(alice, { fileId: rec.fileId, index, spkName })),
    );
    for (const a of answers) expect(a.body.status_code).toBe(1);
    expect((await storedSegments(rec.fileId)).map((s) => s.spkName)).toEqual(names);
  });

  it("another user's record → 30001", async () => {
    const theirs = await record(bob);
    const res = await para(alice, { fileId: theirs.fileId, index: 0, spkName: "Hacker" });
    expect(res.body.status_code).toBe(30001);
    expect(await storedSegments(theirs.fileId)).toEqual(SEGMENTS);
  });
});

describe("the transcript's version: an edit made on an older one is refused (issue 43)", () => {
  const para = (who: SignedIn, body: Record<string, unknown>) => post(who, "/text/update_para", body);
  const stored = (fileId: number) => t.db.transcript.findUniqueOrThrow({ where: { fileId } });
  const versionOf = async (fileId: number) =>
    (await get(alice, `/api/v2/audio/text/get_text?fileId=${fileId}`)).body.data.version as number;

  it("get_text answers the version; each edit answers the next one", async () => {
    const rec = await record(alice);
    expect(await versionOf(rec.fileId)).toBe(1);
    const text = await para(alice, { fileId: rec.fileId, index: 0, text: "改过的第一句。", version: 1 });
    expect(text.body).toMatchObject({ status_code: 1, data: { version: 2 } });
    const rename = await para(alice, { fileId: rec.fileId, index: 1, spkName: "王老师", renameAll: true, version: 2 });
    expect(rename.body).toMatchObject({ status_code: 1, data: { version: 3, renamed: 2 } });
    const all = await post(alice, "/api/v1/audio/text/update_text", {
      fileId: rec.fileId,
      asrResult: SEGMENTS,
      version: "3",
    });
    expect(all.body).toMatchObject({ status_code: 1, data: { version: 4 } });
    // without a version an edit applies to the transcript as it is (older clients, integrators)
    const unversioned = await para(alice, { fileId: rec.fileId, index: 2, text: "好。" });
    expect(unversioned.body.data.version).toBe(5);
    expect(await versionOf(rec.fileId)).toBe(5);
    // nothing changed: nothing written, the version stays
    const same = await para(alice, { fileId: rec.fileId, index: 0, spkName: "", version: 5 });
    expect(same.body.data).toMatchObject({ renamed: 0, version: 5 });
  });

  it("a stale version is refused with 30002 and nothing is written (text, rename, whole transcript)", async () => {
    const rec = await record(alice);
    expect(
      (await para(alice, { fileId: rec.fileId, index: 0, text: "另一个标签页改的。", version: 1 })).body.status_code,
    ).toBe(1);
    const before = await stored(rec.fileId);
    expect(before.version).toBe(2);

    for (const [path, body] of [
      ["/text/update_para", { index: 0, text: "被覆盖了吗？", version: 1 }],
      ["/text/update_para", { index: 1, spkName: "李四", renameAll: true, version: 1 }],
      ["/api/v1/audio/text/update_text", { asrResult: SEGMENTS, version: 1 }],
      ["/text/update_para", { index: 0, text: "来自未来的版本。", version: 3 }],
    ] as const) {
      const res = await post(alice, path, { fileId: rec.fileId, ...body });
      expect(res.body.status_code).toBe(30002);
      expect(res.body.status_msg).toBe("这份转写已在其他标签页或设备上修改，请重新载入后再编辑");
    }
    const after = await stored(rec.fileId);
    expect(after.version).toBe(2);
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(after.asrResult).toEqual(before.asrResult);
    expect((after.asrResult as unknown as Segment[])[0]?.text).toBe("另一个标签页改的。");

    const en = await t
      .http()
      .post(api("/text/update_para"))
      .set("Cookie", alice.cookie)
      .set("lang", "en")
      .send({ fileId: rec.fileId, index: 0, text: "x", version: 1 });
    expect(en.body.status_msg).toBe(
      "This transcript was changed in another tab or on another device. Reload it before editing.",
    );
  });

  it("two parallel edits made on the same version: exactly one is written", async () => {
    const rec = await record(alice);
    const texts = ["第一个标签页写的。", "第二台设备写的。"];
    const answers = await Promise.all(
      texts.map((text) => para(alice, { fileId: rec.fileId, index: 0, text, version: 1 })),
    );
    const codes = answers.map((a) => a.body.status_code).sort();
    expect(codes).toEqual([1, 30002]);
    const winner = texts[answers.findIndex((a) => a.body.status_code === 1)];
    const row = await stored(rec.fileId);
    expect(row.version).toBe(2);
    expect((row.asrResult as unknown as Segment[])[0]?.text).toBe(winner);

    // a rename and a whole-transcript save, both made on version 2: one of them
    const [rename, replace] = await Promise.all([
      para(alice, { fileId: rec.fileId, index: 1, spkName: "王老师", renameAll: true, version: 2 }),
      post(alice, "/api/v1/audio/text/update_text", { fileId: rec.fileId, asrResult: SEGMENTS, version: 2 }),
    ]);
    expect([rename.body.status_code, replace.body.status_code].sort()).toEqual([1, 30002]);
    const last = await stored(rec.fileId);
    expect(last.version).toBe(3);
    const names = (last.asrResult as unknown as Segment[]).map((s) => s.spkName);
    expect(names).toEqual(
      rename.body.status_code === 1 ? ["说话人1", "王老师", "说话人1", "王老师"] : SEGMENTS.map((s) => s.spkName),
    );
  });

  it.each([0, -1, "soon", 1.5])("version %j → 10002 naming version", async (version) => {
    const rec = await record(alice);
    const res = await para(alice, { fileId: rec.fileId, index: 0, text: "x", version });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("version");
    expect((await stored(rec.fileId)).version).toBe(1);
  });
});

describe("default speaker labels follow the reader's language (issue 30)", () => {
  const ENGLISH: Segment[] = [
    { spkName: "Speaker 1", startTime: 0, endTime: 1000, text: "Hello everyone." },
    { spkName: "Speaker 2", startTime: 1000, endTime: 2000, text: "Hi." },
    { spkName: "Speaker 1", startTime: 2000, endTime: 3000, text: "Let us start." },
    { spkName: "王老师", startTime: 3000, endTime: 4000, text: "好。" },
  ];
  const names = (body: { data: { asrResult: string } }) =>
    (JSON.parse(body.data.asrResult) as Segment[]).map((s) => s.spkName);

  it("get_text: an English recording reads 说话人1 in Chinese and Speaker 1 in English; given names stay", async () => {
    const rec = await record(alice, { segments: ENGLISH });
    const zh = await get(alice, `/api/v2/audio/text/get_text?fileId=${rec.fileId}`);
    expect(names(zh.body)).toEqual(["说话人1", "说话人2", "说话人1", "王老师"]);
    const en = await get(alice, `/text/get_text?fileId=${rec.fileId}&withWords=1`).set("lang", "en");
    expect(names(en.body)).toEqual(["Speaker 1", "Speaker 2", "Speaker 1", "王老师"]);
    const zhOfChinese = await get(alice, `/text/get_text?fileId=${(await record(alice)).fileId}&lang=en`);
    expect(names(zhOfChinese.body)).toEqual(["Speaker 1", "Speaker 2", "Speaker 1", "Speaker 2"]);
  });

  it("TXT and SRT exports carry the labels of the language they are asked in", async () => {
    const rec = await record(alice, { segments: ENGLISH });
    const txt = await get(alice, `/api/v3/audio/text/export_txt?fileId=${rec.fileId}`);
    expect(txt.text).toContain("说话人1");
    expect(txt.text).not.toContain("Speaker");
    const srt = await get(alice, `/api/v3/audio/text/export_srt?fileId=${rec.fileId}`).set(
      "Cookie",
      `${alice.cookie}; lang=en`,
    );
    expect(srt.text).toContain("Speaker 2");
    expect(srt.text).not.toContain("说话人");
  });

  it("update_para: the label shown is the old name; renameAll reaches the label in either language", async () => {
    const rec = await record(alice, {
      segments: [...ENGLISH, { spkName: "说话人1", startTime: 4000, endTime: 5000, text: "x" }],
    });
    const same = await post(alice, "/text/update_para", { fileId: rec.fileId, index: 0, spkName: "说话人1" });
    expect(same.body.data).toMatchObject({ oldName: "说话人1", newName: "说话人1", renamed: 0 });
    const all = await post(alice, "/text/update_para", {
      fileId: rec.fileId,
      index: 0,
      spkName: "李雷",
      renameAll: true,
    });
    expect(all.body.data).toMatchObject({ oldName: "说话人1", newName: "李雷", renamed: 3 });
    expect(all.body.data.speakers).toEqual(["李雷", "说话人2", "王老师"]);
    expect((await storedSegments(rec.fileId)).map((s) => s.spkName)).toEqual([
      "李雷",
      "Speaker 2",
      "李雷",
      "王老师",
      "李雷",
    ]);
    const en = await t
      .http()
      .post(api("/text/update_para"))
      .set("Cookie", `${alice.cookie}; lang=en`)
      .send({ fileId: rec.fileId, index: 1, text: "Hello." });
    expect(en.body.data).toMatchObject({ oldName: "Speaker 2", segment: { spkName: "Speaker 2", text: "Hello." } });
  });
});

describe("hot words", () => {
  it("GET lists the user's words; PUT replaces them (trimmed, de-duplicated, in order)", async () => {
    const who = await signIn(t);
    expect((await get(who, "/api/v1/hotWords")).body).toMatchObject({ status_code: 1, data: { hotWords: [] } });
    const put = await t
      .http()
      .put(api("/api/v1/hotWords"))
      .set("Cookie", who.cookie)
      .send({ hotWords: [" 悦录 ", "Whisper", "悦录", "<b>x</b>", "'; DROP TABLE hot_words; --"] });
    expect(put.body.data.hotWords).toEqual(["悦录", "Whisper", "<b>x</b>", "'; DROP TABLE hot_words; --"]);
    expect((await get(who, "/api/v1/hotWords")).body.data.hotWords).toEqual(put.body.data.hotWords);

    const form = await t
      .http()
      .put(api("/api/v1/hotWords"))
      .set("Cookie", who.cookie)
      .type("form")
      .send({ hotWords: "语音识别，转写\nASR" });
    expect(form.body.data.hotWords).toEqual(["语音识别", "转写", "ASR"]);
    const cleared = await t.http().put(api("/api/v1/hotWords")).set("Cookie", who.cookie).send({ hotWords: [] });
    expect(cleared.body.data.hotWords).toEqual([]);
    expect(await t.db.hotWord.count({ where: { userId: who.userId } })).toBe(0);
    expect((await get(alice, "/api/v1/hotWords")).body.data.hotWords).toEqual([]);
  });

  it.each([
    ["201 words", { hotWords: Array.from({ length: 201 }, (_, i) => `w${i}`) }],
    ["a word of 51", { hotWords: ["x".repeat(51)] }],
    ["an empty word", { hotWords: ["ok", "  "] }],
    ["not a list", { hotWords: { a: 1 } }],
    ["numbers", { hotWords: [1, 2] }],
    ["missing", {}],
    ["bad JSON text", { hotWords: '["a",' }],
  ])("%s → 10002, nothing changed", async (_name, body) => {
    const who = await signIn(t);
    await t.db.hotWord.create({ data: { userId: who.userId, word: "keep" } });
    const res = await t.http().put(api("/api/v1/hotWords")).set("Cookie", who.cookie).send(body);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("hotWords");
    expect((await get(who, "/api/v1/hotWords")).body.data.hotWords).toEqual(["keep"]);
  });

  it("parallel PUTs leave one of the lists, never a mix", async () => {
    const who = await signIn(t);
    const lists = Array.from({ length: 6 }, (_, i) => Array.from({ length: 20 }, (_, j) => `L${i}-${j}`));
    await Promise.all(
      lists.map((hotWords) => t.http().put(api("/api/v1/hotWords")).set("Cookie", who.cookie).send({ hotWords })),
    );
    const saved = (await get(who, "/api/v1/hotWords")).body.data.hotWords;
    expect(lists).toContainEqual(saved);
  });
});

describe("summary", () => {
  const zh = [
    "大家好，今天我们开会讨论语音识别项目的进度。",
    "嗯。",
    "语音识别模型的训练上周已经完成，识别准确率达到了百分之九十五。",
    "对对对。",
    "今天天气不错，中午我们一起去食堂吃饭吧？",
    "接下来要补充方言数据，再训练一版语音识别模型。",
    "好的。",
    "测试团队会在周五之前完成模型的评测报告！",
    "还有别的问题吗？",
    "没有了，那语音识别模型下周一正式上线。",
  ];

  it("splits Chinese and English sentences, keeping decimals whole", () => {
    expect(splitSentences("你好。今天开会！要讨论吗？Version 3.5 is out. Really?! Yes")).toEqual([
      "你好。",
      "今天开会！",
      "要讨论吗？",
      "Version 3.5 is out.",
      "Really?!",
      "Yes",
    ]);
    expect(termsOf("语音识别 ASR model")).toEqual(["语音", "音识", "识别", "asr", "model"]);
    expect([1, 3, 4, 10, 20, 25, 100].map(summaryLength)).toEqual([1, 3, 3, 3, 4, 5, 5]);
  });

  it("picks the informative sentences, real ones, in their original order", () => {
    const picked = summarizeSentences(zh);
    expect(picked).toHaveLength(3);
    const positions = picked.map((s) => zh.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const filler of ["嗯。", "对对对。", "好的。"]) expect(picked).not.toContain(filler);
    expect(picked.filter((s) => s.includes("语音识别")).length).toBeGreaterThanOrEqual(2);
    expect(picked).not.toContain("今天天气不错，中午我们一起去食堂吃饭吧？");

    const en = summarize([
      "Welcome everyone. Today we review the speech recognition roadmap.",
      "Okay.",
      "The recognition model finished training last week and accuracy reached 95 percent.",
      "I had pasta for lunch, it was great!",
      "Next we collect dialect data and train the recognition model again.",
      "Yeah.",
      "Testing will finish the evaluation report by Friday.",
      "Any questions? No? Then the recognition model ships on Monday.",
    ]);
    expect(en).toContain("The recognition model finished training last week and accuracy reached 95 percent.");
    expect(en).not.toContain("pasta");
    expect(summarize([])).toBe("");
    expect(summarize(["只有一句话。"])).toBe("只有一句话。");
  });

  it("never repeats a sentence, said again word for word or nearly (issue 43)", () => {
    const repeated = [
      "大家好，今天我们讨论语音识别模型的上线计划。",
      "语音识别模型下周一正式上线。",
      "嗯。",
      "语音识别模型下周一正式上线！",
      "语音识别模型下周一正式上线吧。",
      "测试团队周五之前完成语音识别模型的评测报告。",
      "语音识别模型 下周一 正式上线。",
      "方言数据还要再补充一些。",
      "语音识别模型下周一正式上线。",
      "好的。",
    ];
    const picked = summarizeSentences(repeated);
    expect(picked).toHaveLength(summaryLength(repeated.length));
    for (let i = 0; i < picked.length; i++)
      for (let j = i + 1; j < picked.length; j++) expect(nearlySame(picked[i]!, picked[j]!)).toBe(false);
    expect(picked.filter((s) => s.includes("下周一正式上线") || s.includes("下周一 正式上线"))).toHaveLength(1);

    const en = splitSentences(
      "The model ships on Monday. The model ships on Monday! Testing ends on Friday. The model ships on monday.",
    );
    expect(summarizeSentences(en)).toEqual(["The model ships on Monday.", "Testing ends on Friday."]);
    expect(summarize(Array.from({ length: 12 }, () => "同一句话反复出现了很多次。"))).toBe(
      "同一句话反复出现了很多次。",
    );

    expect(nearlySame("The meeting ends at five.", "The meeting ends at five o'clock.")).toBe(true);
    expect(nearlySame("下周一上线。", "下周二上线。")).toBe(false);
    expect(nearlySame("语音识别模型下周一正式上线。", "测试团队周五之前完成评测报告。")).toBe(false);
  });

  it("update_abstracts stores a given summary, or generates one from the transcript", async () => {
    const segments = zh.map((text, i) => ({ spkName: "说话人1", startTime: i * 1000, endTime: i * 1000 + 900, text }));
    const rec = await record(alice, { segments });
    const generated = await post(alice, "/text/update_abstracts", { fileId: rec.fileId });
    expect(generated.body.status_code).toBe(1);
    const summaryText: string = generated.body.data.abstracts;
    expect(summaryText).toBe(summarizeSentences(zh).join(""));
    expect((await t.db.transcript.findUniqueOrThrow({ where: { fileId: rec.fileId } })).abstracts).toBe(summaryText);

    const given = await post(alice, "/text/update_abstracts", { fileId: rec.fileId, abstracts: "我写的 <b>摘要</b>" });
    expect(given.body.data.abstracts).toBe("我写的 <b>摘要</b>");
    const detail = await get(alice, `/api/v2/audio/text/get_text?fileId=${rec.fileId}`);
    expect(detail.body.data.abstracts).toBe("我写的 <b>摘要</b>");

    const tooLong = await post(alice, "/text/update_abstracts", { fileId: rec.fileId, abstracts: "x".repeat(20_001) });
    expect(tooLong.body.status_code).toBe(10002);
    const theirs = await record(bob);
    expect((await post(alice, "/text/update_abstracts", { fileId: theirs.fileId })).body.status_code).toBe(30001);
  });

  it("abstracts_export_word is a .docx of the summary", async () => {
    const rec = await record(alice, { abstracts: "本次会议确定了发布时间。" });
    const res = await binary(get(alice, `/text/abstracts_export_word?fileId=${rec.fileId}`));
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("wordprocessingml");
    expect(res.headers["content-disposition"]).toContain(
      `filename*=UTF-8''${encodeURIComponent("周会 记录-摘要.docx")}`,
    );
    const xml = docxText(res.body);
    expect(xml).toContain("本次会议确定了发布时间。");
    expect(xml).toContain("周会 记录-摘要");
  });
});

describe("exports", () => {
  it("txt with speaker and time, either, or neither", async () => {
    const rec = await record(alice);
    const full = await get(alice, `/api/v3/audio/text/export_txt?fileId=${rec.fileId}&withSpeaker=1&withTime=1`);
    expect(full.status).toBe(200);
    expect(full.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(full.text).toBe(
      "说话人1  00:00:00\n大家好，今天我们讨论语音识别项目的进度。\n\n" +
        "说话人2  00:00:04\n模型训练已完成 <b>80%</b> & 还有测试。\n\n" +
        "说话人1  00:00:09\n好的，下周发布。\n\n" +
        "说话人2  01:02:03\n散会。\n",
    );
    const speakerOnly = await get(alice, `/api/v3/audio/text/export_txt?fileId=${rec.fileId}&withTime=0`);
    expect(speakerOnly.text.startsWith("说话人1\n大家好")).toBe(true);
    expect(speakerOnly.text).not.toMatch(/\d\d:\d\d:\d\d/);
    const plain = await get(
      alice,
      `/api/v3/audio/text/export_txt?fileId=${rec.fileId}&withSpeaker=false&withTime=false`,
    );
    expect(plain.text).toBe(`${SEGMENTS.map((s) => s.text).join("\n")}\n`);
    const bad = await get(alice, `/api/v3/audio/text/export_txt?fileId=${rec.fileId}&withTime=yes`);
    expect(bad.body.status_code).toBe(10002);
  });

  it("names the file after the record, UTF-8 per RFC 5987 with an ASCII fallback", async () => {
    const rec = await record(alice, { fileName: '季度"总结";报告.m4a' });
    const res = await get(alice, `/api/v3/audio/text/export_txt?fileId=${rec.fileId}`);
    const header = res.headers["content-disposition"] as string;
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|-]+$/);
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe("季度_总结_;报告.txt");
    expect(contentDisposition("a b(1).txt")).toBe(
      `attachment; filename="a b(1).txt"; filename*=UTF-8''a%20b%281%29.txt`,
    );
  });

  it("word: a .docx (zip) whose document.xml holds the title, meta line, speakers, times and text", async () => {
    const rec = await record(alice, { abstracts: "会议摘要内容。" });
    for (const path of ["/api/v3/audio/text/export_word", "/text/rich_export_word"]) {
      const res = await binary(get(alice, `${path}?fileId=${rec.fileId}`));
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      );
      expect(res.headers["content-disposition"]).toContain(`filename*=UTF-8''${encodeURIComponent("周会 记录.docx")}`);
      expect(res.body.subarray(0, 2).toString()).toBe("PK");
      const xml = docxText(res.body);
      for (const part of [
        "周会 记录",
        "时长 01:02:06",
        "摘要",
        "会议摘要内容。",
        "说话人1",
        "00:00:04",
        "01:02:03",
        "好的，下周发布。",
      ]) {
        expect(xml).toContain(part);
      }
      expect(xml).toContain("模型训练已完成 &lt;b&gt;80%&lt;/b&gt; &amp; 还有测试。");
    }
    const en = await binary(get(alice, `/api/v3/audio/text/export_word?fileId=${rec.fileId}&lang=en`));
    expect(docxText(en.body)).toContain("Duration 01:02:06");
    // Text only: no speaker names, no segment times (the meta line keeps the duration).
    const bare = docxText(
      (await binary(get(alice, `/api/v3/audio/text/export_word?fileId=${rec.fileId}&withSpeaker=0&withTime=0`))).body,
    );
    expect(bare).toContain("好的，下周发布。");
    expect(bare).not.toContain("说话人1");
    expect(bare).not.toContain("00:00:04");
    const timesOnly = docxText(
      (await binary(get(alice, `/api/v3/audio/text/export_word?fileId=${rec.fileId}&withSpeaker=0`))).body,
    );
    expect(timesOnly).toContain("00:00:04");
    expect(timesOnly).not.toContain("说话人1");
  });

  it("srt: numbered cues with HH:MM:SS,mmm times and the speaker", async () => {
    const rec = await record(alice);
    const res = await get(alice, `/api/v3/audio/text/export_srt?fileId=${rec.fileId}`);
    expect(res.headers["content-disposition"]).toContain(".srt");
    const text = res.text ?? res.body.toString();
    const cues = text.trim().split(/\n\n/);
    expect(cues).toHaveLength(4);
    expect(cues[0]).toBe("1\n00:00:00,000 --> 00:00:04,200\n说话人1: 大家好，今天我们讨论语音识别项目的进度。");
    expect(cues[3]).toBe("4\n01:02:03,456 --> 01:02:05,500\n说话人2: 散会。");
    for (const cue of cues) expect(cue).toMatch(/^\d+\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n.+$/);
  });

  it("vtt: WEBVTT header, HH:MM:SS.mmm times, the speaker as a voice span, text escaped", async () => {
    const rec = await record(alice);
    const res = await get(alice, `/api/v3/audio/text/export_vtt?fileId=${rec.fileId}`);
    expect(res.headers["content-type"]).toBe("text/vtt; charset=utf-8");
    const text = res.text ?? res.body.toString();
    expect(text.startsWith("WEBVTT\n\n")).toBe(true);
    expect(text).toContain(
      "2\n00:00:04.200 --> 00:00:09.050\n<v 说话人2>模型训练已完成 &lt;b&gt;80%&lt;/b&gt; &amp; 还有测试。\n",
    );
    expect(text).toContain("4\n01:02:03.456 --> 01:02:05.500\n<v 说话人2>散会。\n");
  });

  it("export formatting helpers", () => {
    expect(clock(3_723_456)).toBe("01:02:03");
    expect(clock(-5)).toBe("00:00:00");
    expect(cueTime(3_723_456, ",")).toBe("01:02:03,456");
    expect(cueTime(360_000_000, ".")).toBe("100:00:00.000");
    const odd: Segment[] = [
      { spkName: "A", startTime: 5000, endTime: 5000, text: "line one\n\nline two --> three" },
      { spkName: "B", startTime: 6000, endTime: 7000, text: "   " },
    ];
    expect(toSrt(odd, { withSpeaker: false })).toBe("1\n00:00:05,000 --> 00:00:06,000\nline one\nline two -> three\n");
    expect(toVtt(odd, { withSpeaker: true })).toBe(
      "WEBVTT\n\n1\n00:00:05.000 --> 00:00:06.000\n<v A>line one\nline two --&gt; three\n",
    );
    expect(toTxt([], { withSpeaker: true, withTime: true })).toBe("");
  });

  it("counts today's 'export' task", async () => {
    const who = await signIn(t);
    const rec = await record(who);
    await get(who, `/api/v3/audio/text/export_txt?fileId=${rec.fileId}`);
    const progress = await t.db.taskProgress.findMany({
      where: { userId: who.userId, task: { action: "export" } },
    });
    expect(progress).toEqual([
      expect.objectContaining({ period: businessDay(new Date(), t.config.BUSINESS_TZ), progressAmount: 1 }),
    ]);
  });

  it.each([
    "/api/v3/audio/text/export_txt",
    "/api/v3/audio/text/export_word",
    "/api/v3/audio/text/export_srt",
    "/api/v3/audio/text/export_vtt",
    "/text/abstracts_export_word",
    "/text/generate_url",
  ])("%s: another user's record, the bin, or no transcript → 30001 envelope", async (path) => {
    const theirs = await record(bob);
    const binned = await record(alice, { deletedAt: new Date() });
    const none = await record(alice, { segments: null });
    for (const fileId of [theirs.fileId, binned.fileId, none.fileId]) {
      const res = await get(alice, `${path}?fileId=${fileId}`);
      expect(res.headers["content-type"]).toContain("application/json");
      expect(res.body).toMatchObject({ status_code: 30001, data: null });
    }
  });
});

describe("generate_url", () => {
  it("answers a public share link to the record (tests/api/share.test.ts covers it)", async () => {
    const rec = await record(alice);
    const res = await get(alice, `/text/generate_url?fileId=${rec.fileId}`);
    expect(res.body.status_code).toBe(1);
    const url = new URL(res.body.data.url);
    expect(url.pathname).toMatch(/^\/s\/[\w-]{43}$/);
    expect(url.search).toBe("");
  });

  it("the OpenAPI document lists the transcript calls", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body;
    for (const path of [
      "/voice_yuelu/api/v2/audio/text/get_text",
      "/voice_yuelu/api/v1/audio/text/update_text",
      "/voice_yuelu/text/update_para",
      "/voice_yuelu/api/v1/hotWords",
      "/voice_yuelu/api/v3/audio/text/export_word",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
