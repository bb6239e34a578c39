import { randomUUID } from "node:crypto";
import type { Segment } from "@yuelu/contracts";
import { backfillSearchIndex, claimTask, completeTask, parseQuery, tokenize } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t);
  bob = await signIn(t);
  carol = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/voice_yuelu${path}`;
const get = (who: SignedIn, path: string) => t.http().get(api(path)).set("Cookie", who.cookie).set("lang", "en");
const post = (who: SignedIn, path: string, body: Record<string, unknown>) =>
  t.http().post(api(path)).set("Cookie", who.cookie).set("lang", "en").send(body);

interface Hit {
  startTime: number;
  text: string;
  highlights: [number, number][];
}
interface Found {
  fileId: number;
  fileName: string;
  hits: Hit[];
  hitCount: number;
  matchedIn: string[];
  nameHighlights: [number, number][];
}

async function search(who: SignedIn, q: string, extra = ""): Promise<{ total: number; list: Found[] }> {
  const res = await get(who, `/api/v1/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.body.status_code, JSON.stringify(res.body)).toBe(1);
  return res.body.data;
}
const idsOf = async (who: SignedIn, q: string, extra = "") => (await search(who, q, extra)).list.map((r) => r.fileId);

const seg = (startTime: number, text: string, spkName = "说话人1"): Segment => ({
  spkName,
  startTime,
  endTime: startTime + 4000,
  text,
});

/** A record with a transcript, written as the worker does: completeTask (which indexes it). */
async function transcribed(who: SignedIn, segments: Segment[], fileName = `${randomUUID().slice(0, 8)}.mp3`) {
  const rec = await t.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName,
      format: "mp3",
      fileSize: 1000n,
      timeLen: 600,
      storageKey: `test/${randomUUID()}.mp3`,
      fileStatus: 3,
    },
  });
  const task = await t.db.transcriptionTask.create({ data: { fileId: rec.fileId, userId: who.userId, status: 3 } });
  expect(await claimTask(t.domain, task.id)).not.toBeNull();
  expect(await completeTask(t.domain, task.id, { segments, language: "zh" })).toBe(true);
  return rec.fileId;
}

describe("tokenize and parseQuery", () => {
  it("gives Chinese words, bigrams and characters, and leaves Latin text to PostgreSQL", () => {
    const tokens = tokenize("我们在会议室讨论 Roadmap");
    expect(tokens.words.split(" ")).toContain("会议");
    expect(tokens.grams.split(" ")).toEqual(["我们", "们在", "在会", "会议", "议室", "室讨", "讨论"]);
    expect(tokens.chars.split(" ")).toContain("室");
    expect(tokens.latin).toContain("Roadmap");
    expect(tokens.latin).not.toMatch(/\p{Script=Han}/u);
  });
  it("turns a Han run into the AND of its bigrams and keeps the Latin rest apart", () => {
    const q = parseQuery("  会议室 running ");
    expect(q.hanQuery).toBe("'会议' & '议室'");
    expect(q.latin).toBe("running");
    expect(parseQuery("会").hanQuery).toBe("'会'");
  });
});

describe("GET /api/v1/search", () => {
  let meeting: number;
  let english: number;
  let scattered: number;
  beforeAll(async () => {
    meeting = await transcribed(
      alice,
      [
        seg(0, "大家好，今天我们讨论语音识别项目的进度。"),
        seg(5_000, "下午三点在会议室开会，请准时参加。"),
        seg(3_723_456, "散会。"),
      ],
      "周会记录.mp3",
    );
    english = await transcribed(
      alice,
      [seg(0, "Welcome to the planning call."), seg(61_000, "She was running the numbers for the quarterly budget.")],
      "Budget review.m4a",
    );
    // 会议 and 议室 both occur, but never 会议室 as one substring: bigram AND alone would be a false hit.
    scattered = await transcribed(alice, [seg(0, "会议推迟了，议室的钥匙在我这里。")], "杂项.mp3");
  });

  it("finds a Chinese word, with its time in ms and the word highlighted", async () => {
    const found = await search(alice, "会议室");
    expect(found.list.map((r) => r.fileId)).toEqual([meeting]);
    expect(found.total).toBe(1);
    const [hit] = found.list[0]!.hits;
    expect(hit!.startTime).toBe(5_000);
    expect(hit!.text).toBe("下午三点在会议室开会，请准时参加。");
    const [[from, to]] = hit!.highlights as [[number, number]];
    expect(hit!.text.slice(from, to)).toBe("会议室");
  });

  it("finds a Chinese substring that is no word of its own, and a single character", async () => {
    // 别项 is a substring of 识别项目, not a word the segmenter finds
    expect(await idsOf(alice, "别项")).toEqual([meeting]);
    expect((await search(alice, "散")).list.find((r) => r.fileId === meeting)?.hits[0]?.startTime).toBe(3_723_456);
  });

  it("ranks a record holding the whole phrase above one holding its parts apart", async () => {
    const ids = await idsOf(alice, "会议");
    expect(ids).toContain(meeting);
    expect(ids).toContain(scattered);
    const both = await search(alice, "会议 开会");
    expect(both.list.map((r) => r.fileId)).toEqual([meeting]);
  });

  it("stems English: 'runs' finds 'running', case-insensitive, and highlights the word", async () => {
    const found = await search(alice, "RUNS");
    expect(found.list.map((r) => r.fileId)).toEqual([english]);
    const hit = found.list[0]!.hits[0]!;
    expect(hit.startTime).toBe(61_000);
    expect(hit.highlights.map(([a, b]) => hit.text.slice(a, b))).toEqual(["running"]);
    expect(await idsOf(alice, "budgets quarterly")).toEqual([english]);
    expect(await idsOf(alice, "budget zebra")).toEqual([]);
  });

  it("answers nothing for a query of stop words only", async () => {
    expect(await search(alice, "the")).toEqual({ total: 0, list: [] });
  });

  it("finds records by name, with matchedIn and no segment hits", async () => {
    const found = await search(alice, "review");
    expect(found.list.map((r) => r.fileId)).toEqual([english]);
    expect(found.list[0]!.matchedIn).toEqual(["name"]);
    expect(found.list[0]!.hits).toEqual([]);
    const [[a, b]] = found.list[0]!.nameHighlights as [[number, number]];
    expect(found.list[0]!.fileName.slice(a, b)).toBe("review");
  });

  it("pages over records: total counts records, a page past the end is empty", async () => {
    const ids = await idsOf(alice, "会议");
    const first = await search(alice, "会议", "&page=1&pageSize=1");
    expect(first.total).toBe(ids.length);
    expect(first.list.map((r) => r.fileId)).toEqual([ids[0]]);
    const second = await search(alice, "会议", "&page=2&pageSize=1");
    expect(second.list.map((r) => r.fileId)).toEqual([ids[1]]);
    const past = await search(alice, "会议", "&page=9&pageSize=1");
    expect(past).toEqual({ total: ids.length, list: [] });
  });

  it("validates q, page and pageSize with 10002 naming the field", async () => {
    for (const [query, field] of [
      ["q=%20%20", "q"],
      [`q=${"a".repeat(101)}`, "q"],
      ["", "q"],
      ["q=a&page=0", "page"],
      ["q=a&pageSize=51", "pageSize"],
    ] as const) {
      const res = await get(alice, `/api/v1/search?${query}`);
      expect(res.body.status_code, query).toBe(10002);
      expect(res.body.status_msg, query).toContain(field);
    }
  });

  it("needs a signed-in caller (10001) and also works with an API key", async () => {
    const anonymous = await t.http().get(api("/api/v1/search?q=会议")).set("lang", "en");
    expect(anonymous.body.status_code).toBe(10001);
    const key = await post(alice, "/api/v1/api_keys/create", { name: "search" });
    const res = await t
      .http()
      .get(api(`/api/v1/search?q=${encodeURIComponent("会议室")}`))
      .set("Authorization", `Bearer ${key.body.data.key}`);
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.list.map((r: Found) => r.fileId)).toEqual([meeting]);
  });

  it("shows only the caller's own records", async () => {
    const bobs = await transcribed(bob, [seg(0, "会议室的投影仪坏了。")]);
    expect(await idsOf(bob, "会议室")).toEqual([bobs]);
    expect(await idsOf(alice, "投影仪")).toEqual([]);
  });
});

describe("record rows (one per record: candidates and total come from them)", () => {
  const recordRows = (fileId: number) =>
    t.db.$queryRaw<{ seq: number; text: string; lexemes: string[] }[]>`
      SELECT seq, text, tsvector_to_array(tokens) AS lexemes FROM search_entries
      WHERE "fileId" = ${fileId}::int AND kind = 'record' ORDER BY seq`;

  it("indexing writes one record row: every row's tokens, its texts one per line", async () => {
    const fileId = await transcribed(
      carol,
      [seg(0, "第一句讲冰川。"), seg(4_000, "Second one is about GLACIERS.", "Wangfang")],
      "冰川纪录.mp3",
    );
    const [row, more] = await recordRows(fileId);
    expect(more).toBeUndefined();
    expect(row!.seq).toBe(0);
    expect(row!.lexemes).toEqual(expect.arrayContaining(["冰川", "纪录", "glacier", "wangfang", "讲"]));
    expect(row!.text.split("\n")).toEqual(
      expect.arrayContaining(["冰川纪录.mp3", "第一句讲冰川。", "wangfang second one is about glaciers."]),
    );
    // the record row is no hit and no kind of match of its own
    const found = await search(carol, "冰川");
    expect(found.list[0]!.matchedIn).toEqual(["segment", "name"]);
    expect(found.list[0]!.hitCount).toBe(1);
  });

  it("a Han run split across two segments is no match (lines are checked one by one)", async () => {
    // 蓝鲸 ends one segment and 鱼 starts the next; 鲸鱼 occurs elsewhere: the record row holds
    // both bigrams of 蓝鲸鱼, the text check rejects it, as the segment rows would.
    const split = await transcribed(carol, [
      seg(0, "远处游过一头蓝鲸"),
      seg(4_000, "鱼群跟在后面。"),
      seg(8_000, "鲸鱼会唱歌。"),
    ]);
    expect(await search(carol, "蓝鲸鱼")).toEqual({ total: 0, list: [] });
    expect(await idsOf(carol, "蓝鲸")).toEqual([split]);
    const whole = await transcribed(carol, [seg(0, "这是一条蓝鲸鱼的故事。")]);
    const found = await search(carol, "蓝鲸鱼");
    expect(found.total).toBe(1);
    expect(found.list.map((r) => r.fileId)).toEqual([whole]);
  });

  it("a query's parts must meet in one segment, not only somewhere in the record", async () => {
    const apart = await transcribed(carol, [seg(0, "火山爆发了。"), seg(4_000, "The lava was hot.")]);
    const together = await transcribed(carol, [seg(0, "火山 lava 一起出现。")]);
    const found = await search(carol, "火山 lava");
    expect(found.total).toBe(1);
    expect(found.list.map((r) => r.fileId)).toEqual([together]);
    expect(await idsOf(carol, "火山")).toEqual(expect.arrayContaining([apart, together]));
  });

  it("backfill gives a record indexed before record rows existed its record row", async () => {
    const fileId = await transcribed(carol, [seg(0, "老版本索引的企鹅。")]);
    await t.db.$executeRaw`DELETE FROM search_entries WHERE "fileId" = ${fileId}::int AND kind = 'record'`;
    expect(await idsOf(carol, "企鹅")).toEqual([]);
    expect(await backfillSearchIndex(t.db)).toBeGreaterThanOrEqual(1);
    expect(await recordRows(fileId)).toHaveLength(1);
    expect(await idsOf(carol, "企鹅")).toEqual([fileId]);
    expect(await backfillSearchIndex(t.db)).toBe(0);
  });
});

describe("the index stays right after every edit path", () => {
  it("update_text", async () => {
    const fileId = await transcribed(alice, [seg(0, "原来的句子讲的是天气。")]);
    expect(await idsOf(alice, "天气")).toContain(fileId);
    const res = await post(alice, "/api/v1/audio/text/update_text", {
      fileId,
      asrResult: [seg(0, "改过以后讲的是火箭发射。")],
    });
    expect(res.body.status_code).toBe(1);
    expect(await idsOf(alice, "天气")).not.toContain(fileId);
    expect(await idsOf(alice, "火箭发射")).toEqual([fileId]);
  });

  it("update_para: a segment's text and a speaker rename", async () => {
    const fileId = await transcribed(alice, [seg(0, "第一段关于潜水艇。"), seg(7_000, "第二段关于热气球。")]);
    await post(alice, "/text/update_para", { fileId, index: 1, text: "第二段改成了滑翔伞。" });
    expect(await idsOf(alice, "热气球")).not.toContain(fileId);
    expect((await search(alice, "滑翔伞")).list[0]?.hits[0]?.startTime).toBe(7_000);

    expect(await idsOf(alice, "Zhangwei")).toEqual([]);
    const renamed = await post(alice, "/text/update_para", { fileId, index: 0, spkName: "Zhangwei", renameAll: true });
    expect(renamed.body.status_code).toBe(1);
    const bySpeaker = await search(alice, "zhangwei");
    expect(bySpeaker.list.map((r) => r.fileId)).toEqual([fileId]);
    expect(bySpeaker.list[0]!.hitCount).toBe(2);
    await post(alice, "/text/update_para", { fileId, index: 0, spkName: "Lina", renameAll: true });
    expect(await idsOf(alice, "zhangwei")).toEqual([]);
    expect(await idsOf(alice, "lina")).toEqual([fileId]);
  });

  it("the summary", async () => {
    const fileId = await transcribed(alice, [seg(0, "随便说点什么。")]);
    await post(alice, "/text/update_abstracts", { fileId, abstracts: "要点：预算冻结到明年。" });
    const found = await search(alice, "预算冻结");
    expect(found.list.map((r) => r.fileId)).toEqual([fileId]);
    expect(found.list[0]!.matchedIn).toEqual(["summary"]);
    await post(alice, "/text/update_abstracts", { fileId, abstracts: "要点：没有了。" });
    expect(await idsOf(alice, "预算冻结")).toEqual([]);
  });

  it("rename of the record", async () => {
    const fileId = await transcribed(alice, [seg(0, "内容不重要。")], "旧名字.mp3");
    expect(await idsOf(alice, "旧名字")).toEqual([fileId]);
    const res = await post(alice, "/api/v1/audio/record/update_record", { fileId, fileName: "年度战略复盘" });
    expect(res.body.status_code).toBe(1);
    expect(await idsOf(alice, "旧名字")).toEqual([]);
    expect(await idsOf(alice, "战略复盘")).toEqual([fileId]);
  });

  it("delete to the bin, includeDeleted, restore, delete forever", async () => {
    const fileId = await transcribed(alice, [seg(0, "关于独角兽公司的讨论。")]);
    expect(await idsOf(alice, "独角兽")).toEqual([fileId]);
    await post(alice, "/api/v1/audio/record/delete_record", { fileId });
    expect(await idsOf(alice, "独角兽")).toEqual([]);
    expect(await idsOf(alice, "独角兽", "&includeDeleted=true")).toEqual([fileId]);
    await post(alice, "/api/v1/audio/record/restore", { fileIds: `${fileId}` });
    expect(await idsOf(alice, "独角兽")).toEqual([fileId]);
    await post(alice, "/api/v1/audio/record/delete_record", { fileId });
    const gone = await post(alice, "/api/v1/audio/record/delete_forever", { fileIds: `${fileId}` });
    expect(gone.body.status_code).toBe(1);
    expect(await idsOf(alice, "独角兽", "&includeDeleted=true")).toEqual([]);
    expect(await t.db.$queryRaw`SELECT 1 FROM search_entries WHERE "fileId" = ${fileId}::int`).toEqual([]);
  });

  it("the worker transcribing a record again replaces its rows", async () => {
    const fileId = await transcribed(alice, [seg(0, "第一次转写说的是菠萝。")]);
    const task = await t.db.transcriptionTask.create({ data: { fileId, userId: alice.userId, status: 3 } });
    expect(await claimTask(t.domain, task.id)).not.toBeNull();
    expect(
      await completeTask(t.domain, task.id, { segments: [seg(0, "第二次转写说的是芒果。")], language: "zh" }),
    ).toBe(true);
    expect(await idsOf(alice, "菠萝")).toEqual([]);
    expect(await idsOf(alice, "芒果")).toEqual([fileId]);
  });

  it("backfill indexes transcripts written without rows, once", async () => {
    const rec = await t.db.audioRecord.create({
      data: {
        userId: alice.userId,
        fileName: "old.mp3",
        format: "mp3",
        fileSize: 1n,
        timeLen: 10,
        storageKey: `test/${randomUUID()}.mp3`,
        fileStatus: 2,
      },
    });
    await t.db.transcript.create({
      data: { fileId: rec.fileId, asrResult: [seg(0, "很久以前录的长颈鹿。")], language: "zh" },
    });
    expect(await idsOf(alice, "长颈鹿")).toEqual([]);
    expect(await backfillSearchIndex(t.db)).toBeGreaterThanOrEqual(1);
    expect(await idsOf(alice, "长颈鹿")).toEqual([rec.fileId]);
    expect(await backfillSearchIndex(t.db)).toBe(0);
  });
});
