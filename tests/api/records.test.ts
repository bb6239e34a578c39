import path from "node:path";
import { businessDay } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MediaFixtures, makeMediaFixtures } from "../fixtures/media.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

// The library: lists, folders, moving, recycle bin, rename, record facts, check_audio.

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
let fx: MediaFixtures;
/** one of bob's records and folders: every call must answer 30001 for them to alice */
let bobsFile: number;
let bobsMenu: number;

beforeAll(async () => {
  [fx, t] = await Promise.all([makeMediaFixtures(), createTestApp()]);
  [alice, bob] = await Promise.all([signIn(t), signIn(t)]);
  bobsFile = (await upload(bob, "bob.wav")).fileId;
  bobsMenu = (await t.db.folder.create({ data: { userId: bob.userId, menuName: "bob" } })).menuId;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fx?.cleanup();
});

const api = (p: string) => `/voice_yuelu${p}`;
const get = (p: string, who: SignedIn | null = alice) =>
  t
    .http()
    .get(api(p))
    .set("Cookie", who?.cookie ?? "");
const post = (p: string, who: SignedIn | null = alice) =>
  t
    .http()
    .post(api(p))
    .set("Cookie", who?.cookie ?? "");

async function upload(who: SignedIn, name: string, menuId?: number): Promise<{ fileId: number; fileName: string }> {
  let req = t.http().post(api("/api/v1/audio/upload")).set("Cookie", who.cookie);
  if (menuId) req = req.field("menuId", String(menuId));
  const res = await req.attach("file", name.endsWith(".mp3") ? fx.mp3 : fx.wav, name);
  if (res.body.status_code !== 1) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function newUserWith(names: string[]) {
  const user = await signIn(t);
  const files = [];
  for (const name of names) files.push(await upload(user, name));
  return { user, files };
}

const storedKey = async (fileId: number) => {
  const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId } });
  return row.storageKey;
};
const exists = async (key: string) => (await t.files.size(key)) !== null;

describe("sign-in is required", () => {
  it.each([
    ["POST", "/api/v1/audio/upload"],
    ["GET", "/api/v3/audio/all_list"],
    ["GET", "/api/v3/audio/list"],
    ["GET", "/api/v2/audio/no_transfer_list"],
    ["GET", "/api/v3/audio/recycle_list"],
    ["POST", "/api/v2/menu/create"],
    ["POST", "/api/v2/menu/update"],
    ["POST", "/api/v2/menu/delete"],
    ["POST", "/api/v2/audio/move"],
    ["POST", "/api/v2/audio/move_batch"],
    ["POST", "/api/v1/audio/record/delete_record"],
    ["POST", "/api/v1/audio/record/delete_batch"],
    ["POST", "/api/v1/audio/record/restore"],
    ["POST", "/api/v1/audio/record/delete_forever"],
    ["POST", "/api/v1/audio/record/update_record"],
    ["GET", "/api/v3/audio/record/get_record_by_id"],
    ["GET", "/api/v1/audio/check_audio"],
    ["GET", "/api/v1/s/file/info"],
    ["GET", "/api/v3/audio/download"],
    ["GET", "/api/v1/audio/download/batch"],
    ["POST", "/api/v1/audio/download/batch"],
  ])("%s %s without a session → 10001", async (method, p) => {
    const res = method === "GET" ? await get(`${p}?fileId=1`, null) : await post(`${p}?fileId=1`, null);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });
});

describe("another user's ids answer 30001 everywhere", () => {
  it.each([
    ["GET", "/api/v3/audio/record/get_record_by_id?fileId=F"],
    ["GET", "/api/v1/audio/check_audio?fileId=F"],
    ["GET", "/api/v1/s/file/info?fileId=F"],
    ["GET", "/api/v3/audio/download?fileId=F"],
    ["GET", "/api/v1/audio/download/batch?fileIds=F"],
    ["POST", "/api/v2/audio/move?fileId=F&menuId=0"],
    ["POST", "/api/v2/audio/move_batch?fileIds=F&menuId=0"],
    ["POST", "/api/v1/audio/record/delete_record?fileId=F"],
    ["POST", "/api/v1/audio/record/delete_batch?fileIds=F"],
    ["POST", "/api/v1/audio/record/restore?fileIds=F"],
    ["POST", "/api/v1/audio/record/delete_forever?fileIds=F"],
    ["POST", "/api/v1/audio/record/update_record?fileId=F&fileName=mine"],
    ["GET", "/api/v3/audio/all_list?menuId=M"],
    ["GET", "/api/v3/audio/list?menuId=M"],
    ["POST", "/api/v2/menu/update?menuId=M&menuName=mine"],
    ["POST", "/api/v2/menu/delete?menuId=M"],
  ])("%s %s", async (method, template) => {
    const p = template.replace("F", String(bobsFile)).replace("M", String(bobsMenu));
    const res = method === "GET" ? await get(p) : await post(p);
    expect(res.body).toMatchObject({ status_code: 30001, data: null });
    // Nothing of bob's changed.
    const file = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: bobsFile } });
    expect(file).toMatchObject({ userId: bob.userId, deletedAt: null, fileName: "bob.wav", menuId: null });
    expect(await t.db.folder.findUnique({ where: { menuId: bobsMenu } })).toMatchObject({ menuName: "bob" });
  });

  it("moving one's own record into another user's folder is 30001", async () => {
    const mine = await upload(alice, "mine.wav");
    const res = await post(`/api/v2/audio/move?fileId=${mine.fileId}&menuId=${bobsMenu}`);
    expect(res.body.status_code).toBe(30001);
    expect(await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: mine.fileId } })).toMatchObject({
      menuId: null,
    });
  });
});

describe("GET /api/v3/audio/all_list and /list", () => {
  let user: SignedIn;
  let ids: number[];
  let menuId: number;
  beforeAll(async () => {
    const made = await newUserWith(["Alpha meeting.wav", "beta 100%_done.wav", "gamma.mp3", "ALPHA notes.wav"]);
    user = made.user;
    ids = made.files.map((f) => f.fileId);
    menuId = (await t.db.folder.create({ data: { userId: user.userId, menuName: "work" } })).menuId;
    await t.db.audioRecord.updateMany({ where: { fileId: { in: [ids[0]!, ids[2]!] } }, data: { menuId } });
    await t.db.audioRecord.update({ where: { fileId: ids[1]! }, data: { fileStatus: 2 } });
    await t.db.audioRecord.update({ where: { fileId: ids[3]! }, data: { fileStatus: -1 } });
  });

  it("lists every record newest first with spec §3 fields, and pages", async () => {
    const res = await get("/api/v3/audio/all_list?source=0&timeStamp=1", user);
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.total).toBe(4);
    expect(res.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([...ids].reverse());
    const first = res.body.data.records[3];
    expect(first).toEqual({
      fileId: ids[0],
      fileName: "Alpha meeting.wav",
      fileStatus: 0,
      timeLen: 2,
      updateTime: expect.any(Number),
      createTime: expect.any(Number),
      format: "wav",
      fileSize: 64_078,
      sampleRate: 16_000,
      audioPath: `/voice_yuelu/api/v3/audio/download?fileId=${ids[0]}&inline=1`,
      progress: 0,
      menuId: String(menuId),
    });
    expect(Math.abs(first.updateTime - Date.now() / 1000)).toBeLessThan(120);
    expect(Math.abs(first.createTime - Date.now() / 1000)).toBeLessThan(120);

    const page2 = await get("/api/v3/audio/all_list?page=2&pageSize=3", user);
    expect(page2.body.data.total).toBe(4);
    expect(page2.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([ids[0]]);
    // the total is right whether the page is full, partial, exact or past the end
    for (const [page, pageSize, rows] of [
      [1, 4, 4],
      [1, 2, 2],
      [2, 2, 2],
      [3, 2, 0],
      [9, 3, 0],
    ] as const) {
      const res = await get(`/api/v3/audio/all_list?page=${page}&pageSize=${pageSize}`, user);
      expect(res.body.data, `page ${page} of ${pageSize}`).toMatchObject({ total: 4 });
      expect(res.body.data.records).toHaveLength(rows);
    }
  });

  it("drops filters whose value is -1 (spec §5)", async () => {
    const res = await get("/api/v3/audio/all_list?menuId=-1&fileStatus=-1&fileName=", user);
    expect(res.body.data.total).toBe(4);
  });

  it("filters by name (case-insensitive substring, % and _ literal), status and folder", async () => {
    const byName = await get("/api/v3/audio/all_list?fileName=alpha", user);
    expect(byName.body.data.records.map((r: { fileId: number }) => r.fileId).sort()).toEqual([ids[0], ids[3]].sort());
    const wildcard = await get(`/api/v3/audio/all_list?fileName=${encodeURIComponent("%_")}`, user);
    expect(wildcard.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([ids[1]]);
    const sql = await get(`/api/v3/audio/all_list?fileName=${encodeURIComponent("' OR 1=1 --")}`, user);
    expect(sql.body.data).toEqual({ total: 0, records: [] });
    const backslash = await get(`/api/v3/audio/all_list?fileName=${encodeURIComponent("\\")}`, user);
    expect(backslash.body.data).toEqual({ total: 0, records: [] });
    const done = await get("/api/v3/audio/all_list?fileStatus=2", user);
    expect(done.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([ids[1]]);
    const inFolder = await get(`/api/v3/audio/all_list?menuId=${menuId}`, user);
    expect(inFolder.body.data.total).toBe(2);
    const both = await get(`/api/v3/audio/all_list?menuId=${menuId}&fileName=ALPHA`, user);
    expect(both.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([ids[0]]);
  });

  it("list: one folder's records; menuId 0 or absent = records in no folder", async () => {
    const folder = await get(`/api/v3/audio/list?menuId=${menuId}`, user);
    expect(folder.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([ids[2], ids[0]]);
    for (const q of ["menuId=0", "", "menuId=-1"]) {
      const none = await get(`/api/v3/audio/list?${q}`, user);
      expect(none.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([ids[3], ids[1]]);
    }
  });

  it.each([
    "page=0",
    "page=abc",
    "pageSize=10000",
    "pageSize=-5",
    "fileStatus=x",
    "menuId=abc",
    "menuId=1%3B%20DROP%20TABLE%20folders",
    `fileName=${"x".repeat(101)}`,
  ])("refuses bad input %s with 10002", async (q) => {
    const res = await get(`/api/v3/audio/all_list?${q}`, user);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toMatch(/page|pageSize|fileStatus|menuId|fileName/);
  });

  it("never shows records in the bin", async () => {
    await t.db.audioRecord.update({ where: { fileId: ids[3]! }, data: { deletedAt: new Date() } });
    const res = await get("/api/v3/audio/all_list", user);
    expect(res.body.data.total).toBe(3);
    await t.db.audioRecord.update({ where: { fileId: ids[3]! }, data: { deletedAt: null } });
  });
});

describe("all_list and list sorted by name, time or duration (sortBy, order)", () => {
  let user: SignedIn;
  /** b.wav (oldest, 30 s), a.wav (60 s), c.wav (newest, 10 s) */
  let b: number;
  let a: number;
  let c: number;
  beforeAll(async () => {
    const made = await newUserWith(["one.wav", "two.wav", "three.wav"]);
    user = made.user;
    [b, a, c] = made.files.map((f) => f.fileId) as [number, number, number];
    const day = (n: number) => new Date(Date.UTC(2025, 0, n));
    for (const [fileId, fileName, timeLen, createdAt] of [
      [b, "b.wav", 30, day(1)],
      [a, "a.wav", 60, day(2)],
      [c, "c.wav", 10, day(3)],
    ] as const) {
      await t.db.audioRecord.update({ where: { fileId }, data: { fileName, timeLen, createdAt } });
    }
  });
  const order = async (q: string, path = "all_list") => {
    const res = await get(`/api/v3/audio/${path}?${q}`, user);
    expect(res.body.status_code, JSON.stringify(res.body)).toBe(1);
    return res.body.data.records.map((r: { fileId: number }) => r.fileId);
  };

  it("sorts by name, time (when made) and duration, each way; each field has its own default order", async () => {
    expect(await order("sortBy=name")).toEqual([a, b, c]);
    expect(await order("sortBy=name&order=desc")).toEqual([c, b, a]);
    expect(await order("sortBy=time")).toEqual([c, a, b]);
    expect(await order("sortBy=time&order=asc")).toEqual([b, a, c]);
    expect(await order("sortBy=duration")).toEqual([a, b, c]);
    expect(await order("sortBy=duration&order=asc")).toEqual([c, b, a]);
    // no sortBy: newest first, as before; order alone turns it
    expect(await order("")).toEqual([c, a, b]);
    expect(await order("order=asc")).toEqual([b, a, c]);
    // the folder list (no folder: all three) sorts alike, and pages follow the order
    expect(await order("sortBy=name&menuId=0", "list")).toEqual([a, b, c]);
    expect(await order("sortBy=name&page=2&pageSize=2")).toEqual([c]);
  });

  it("sorts by when a record was made and says so (createTime): a move or restore does not reorder the list", async () => {
    const menuId = (await t.db.folder.create({ data: { userId: user.userId, menuName: "moved" } })).menuId;
    expect((await post(`/api/v2/audio/move?fileId=${b}&menuId=${menuId}`, user)).body.status_code).toBe(1);
    expect((await post(`/api/v2/audio/move?fileId=${b}&menuId=0`, user)).body.status_code).toBe(1);
    const res = await get("/api/v3/audio/all_list?sortBy=time", user);
    expect(res.body.data.records.map((r: { fileId: number }) => r.fileId)).toEqual([c, a, b]);
    const moved = res.body.data.records[2];
    expect(moved.createTime).toBe(Date.UTC(2025, 0, 1) / 1000);
    expect(moved.updateTime).toBeGreaterThan(moved.createTime);
  });

  it.each([
    ["sortBy=size", "sortBy"],
    ["sortBy=NAME", "sortBy"],
    ["sortBy=", "sortBy"],
    ["order=up", "order"],
    ["sortBy=name&order=descending", "order"],
  ])("refuses %s with 10002 naming %s", async (q, field) => {
    const res = await get(`/api/v3/audio/all_list?${q}`, user);
    expect(res.body).toMatchObject({ status_code: 10002, data: null });
    expect(res.body.status_msg).toContain(field);
  });
});

describe("GET /api/v2/audio/no_transfer_list", () => {
  it("lists records not transcribed yet (0) or failed (-1), not the others nor the binned", async () => {
    const { user, files } = await newUserWith(["a.wav", "b.wav", "c.wav", "d.wav", "e.wav"]);
    const [a, b, c, d, e] = files.map((f) => f.fileId) as [number, number, number, number, number];
    await t.db.audioRecord.update({ where: { fileId: b }, data: { fileStatus: -1 } });
    await t.db.audioRecord.update({ where: { fileId: c }, data: { fileStatus: 2 } });
    await t.db.audioRecord.update({ where: { fileId: d }, data: { fileStatus: 3 } });
    await t.db.audioRecord.update({ where: { fileId: e }, data: { deletedAt: new Date() } });
    const res = await get("/api/v2/audio/no_transfer_list?source=0", user);
    expect(res.body).toEqual({
      status_code: 1,
      status_msg: "success",
      data: [
        { fileStatus: -1, fileName: "b.wav", timeLen: 2, fileId: b },
        { fileStatus: 0, fileName: "a.wav", timeLen: 2, fileId: a },
      ],
    });
  });
});

describe("folders: /api/v2/menu/create, update, delete", () => {
  it("creates a folder (menuId a string) that sound_list then shows", async () => {
    const res = await post("/api/v2/menu/create").send({ menuName: "  项目 A  " });
    expect(res.body).toMatchObject({
      status_code: 1,
      data: { menuId: expect.stringMatching(/^\d+$/), menuName: "项目 A" },
    });
    const list = await get("/api/v2/menu/sound_list?source=0");
    expect(list.body.data).toContainEqual(res.body.data);
  });

  it("keeps HTML and SQL in names as plain text", async () => {
    for (const menuName of ["<script>x</script>", "';DROP TABLE x;--"]) {
      const res = await post("/api/v2/menu/create").type("form").send({ menuName });
      expect(res.body.data.menuName).toBe(menuName);
    }
    expect(await t.db.folder.count()).toBeGreaterThan(0);
  });

  it("refuses a taken name with 10002 naming menuName", async () => {
    await post("/api/v2/menu/create").send({ menuName: "dup" });
    const res = await post("/api/v2/menu/create").send({ menuName: "dup" });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("menuName");
    // Another user may use the same name.
    const other = await post("/api/v2/menu/create", bob).send({ menuName: "dup" });
    expect(other.body.status_code).toBe(1);
  });

  it.each([
    [{}],
    [{ menuName: "" }],
    [{ menuName: "   " }],
    [{ menuName: "x".repeat(21) }],
    [{ menuName: 42 }],
    [{ menuName: "a\u0000b" }],
    [{ menuName: "y".repeat(100_000) }],
  ])("refuses bad names %# with 10002", async (body) => {
    const res = await post("/api/v2/menu/create").send(body);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("menuName");
  });

  it("renames; refuses a taken name; unknown ids are 30001", async () => {
    const a = (await post("/api/v2/menu/create").send({ menuName: "old" })).body.data;
    await post("/api/v2/menu/create").send({ menuName: "taken" });
    const res = await post("/api/v2/menu/update").send({ menuId: a.menuId, menuName: "new" });
    expect(res.body).toMatchObject({ status_code: 1, data: { menuId: a.menuId, menuName: "new" } });
    const same = await post("/api/v2/menu/update").send({ menuId: a.menuId, menuName: "new" });
    expect(same.body.status_code).toBe(1);
    const taken = await post("/api/v2/menu/update").send({ menuId: a.menuId, menuName: "taken" });
    expect(taken.body.status_code).toBe(10002);
    const unknown = await post("/api/v2/menu/update").send({ menuId: "999999", menuName: "x" });
    expect(unknown.body.status_code).toBe(30001);
    const bad = await post("/api/v2/menu/update").send({ menuId: "abc", menuName: "x" });
    expect(bad.body.status_code).toBe(10002);
  });

  it("delete moves the folder's records (binned ones too) to no folder", async () => {
    const folder = (await post("/api/v2/menu/create").send({ menuName: "to delete" })).body.data;
    const inside = await upload(alice, "inside.wav", Number(folder.menuId));
    const binned = await upload(alice, "binned.wav", Number(folder.menuId));
    await post("/api/v1/audio/record/delete_record").send({ fileId: binned.fileId });
    const res = await post("/api/v2/menu/delete").send({ menuId: folder.menuId });
    expect(res.body).toMatchObject({ status_code: 1, data: { menuId: folder.menuId } });
    for (const fileId of [inside.fileId, binned.fileId]) {
      expect(await t.db.audioRecord.findUniqueOrThrow({ where: { fileId } })).toMatchObject({ menuId: null });
    }
    const again = await post("/api/v2/menu/delete").send({ menuId: folder.menuId });
    expect(again.body.status_code).toBe(30001);
  });
});

describe("moving records: /api/v2/audio/move and move_batch (query-string params)", () => {
  it("moves one record into a folder and back out (menuId 0 or empty)", async () => {
    const folder = (await post("/api/v2/menu/create").send({ menuName: "move here" })).body.data;
    const rec = await upload(alice, "move.wav");
    const moved = await post(`/api/v2/audio/move?fileId=${rec.fileId}&menuId=${folder.menuId}`);
    expect(moved.body).toMatchObject({ status_code: 1, data: { fileIds: [rec.fileId], menuId: folder.menuId } });
    const got = await get(`/api/v3/audio/record/get_record_by_id?fileId=${rec.fileId}`);
    expect(got.body.data.menuId).toBe(folder.menuId);
    for (const out of ["menuId=0", "menuId=", ""]) {
      await post(`/api/v2/audio/move?fileId=${rec.fileId}&menuId=${folder.menuId}`);
      const res = await post(`/api/v2/audio/move?fileId=${rec.fileId}&${out}`);
      expect(res.body).toMatchObject({ status_code: 1, data: { menuId: null } });
    }
  });

  it("moves a batch, all or nothing", async () => {
    const folder = (await post("/api/v2/menu/create").send({ menuName: "batch" })).body.data;
    const a = await upload(alice, "ba.wav");
    const b = await upload(alice, "bb.wav");
    const res = await post(`/api/v2/audio/move_batch?fileIds=${a.fileId},${b.fileId}&menuId=${folder.menuId}`);
    expect(res.body).toMatchObject({ status_code: 1, data: { fileIds: [a.fileId, b.fileId], menuId: folder.menuId } });
    const listed = await get(`/api/v3/audio/list?menuId=${folder.menuId}`);
    expect(listed.body.data.total).toBe(2);

    const mixed = await post(`/api/v2/audio/move_batch?fileIds=${a.fileId},${bobsFile}&menuId=0`);
    expect(mixed.body.status_code).toBe(30001);
    expect((await get(`/api/v3/audio/list?menuId=${folder.menuId}`)).body.data.total).toBe(2);
  });

  it.each(["fileId=abc&menuId=0", "fileId=1.5", "fileId=-3", "menuId=0", "fileId=1&menuId=x"])(
    "refuses bad input %s with 10002",
    async (q) => {
      const res = await post(`/api/v2/audio/move?${q}`);
      expect(res.body.status_code).toBe(10002);
    },
  );

  it.each([
    "fileIds=",
    "fileIds=1,,x",
    "fileIds=1e3",
    `fileIds=${Array.from({ length: 501 }, (_, i) => i + 1).join(",")}`,
  ])("move_batch refuses %s with 10002 naming fileIds", async (q) => {
    const res = await post(`/api/v2/audio/move_batch?${q}&menuId=0`);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("fileIds");
  });
});

describe("recycle bin: delete_record, delete_batch, recycle_list, restore, delete_forever", () => {
  it("delete_record and delete_batch move records to the bin, where only the bin calls see them", async () => {
    const { user, files } = await newUserWith(["one.wav", "two.wav", "three.wav"]);
    const [one, two, three] = files.map((f) => f.fileId) as [number, number, number];
    const single = await post("/api/v1/audio/record/delete_record", user).send({ fileId: String(one) });
    expect(single.body).toMatchObject({ status_code: 1, data: { fileIds: [one] } });
    const batch = await post("/api/v1/audio/record/delete_batch", user).send({ fileIds: `${two},${three}` });
    expect(batch.body).toMatchObject({ status_code: 1, data: { fileIds: [two, three] } });

    expect((await get("/api/v3/audio/all_list", user)).body.data.total).toBe(0);
    for (const p of [
      `/api/v3/audio/record/get_record_by_id?fileId=${one}`,
      `/api/v1/audio/check_audio?fileId=${one}`,
      `/api/v1/s/file/info?fileId=${one}`,
      `/api/v3/audio/download?fileId=${one}`,
    ]) {
      expect((await get(p, user)).body.status_code).toBe(30001);
    }
    // Binning twice: the record is not visible any more.
    expect((await post("/api/v1/audio/record/delete_record", user).send({ fileId: one })).body.status_code).toBe(30001);

    const bin = await get("/api/v3/audio/recycle_list?source=0", user);
    expect(bin.body.data.total).toBe(3);
    const rec = bin.body.data.records.find((r: { fileId: number }) => r.fileId === one);
    expect(rec).toMatchObject({ fileName: "one.wav", deleteTime: expect.any(Number) });
    expect(Math.abs(rec.deleteTime - Date.now() / 1000)).toBeLessThan(120);
    const paged = await get("/api/v3/audio/recycle_list?page=2&pageSize=2", user);
    expect(paged.body.data).toMatchObject({ total: 3, records: [expect.any(Object)] });
  });

  it("restore brings records back; ids not in the bin are 30001 and nothing changes", async () => {
    const { user, files } = await newUserWith(["r1.wav", "r2.wav"]);
    const [r1, r2] = files.map((f) => f.fileId) as [number, number];
    await post("/api/v1/audio/record/delete_batch", user).send({ fileIds: [r1, r2] });
    const notBinned = await upload(user, "r3.wav");
    const mixed = await post("/api/v1/audio/record/restore", user).send({ fileIds: `${r1},${notBinned.fileId}` });
    expect(mixed.body.status_code).toBe(30001);
    expect((await get("/api/v3/audio/recycle_list", user)).body.data.total).toBe(2);

    const res = await post("/api/v1/audio/record/restore", user).send({ fileIds: `${r1},${r2}` });
    expect(res.body).toMatchObject({ status_code: 1, data: { fileIds: [r1, r2] } });
    expect((await get("/api/v3/audio/all_list", user)).body.data.total).toBe(3);
    expect((await get("/api/v3/audio/recycle_list", user)).body.data.total).toBe(0);
  });

  it("delete_forever removes only binned records: rows, transcript, tasks and the files on disk", async () => {
    const { user, files } = await newUserWith(["f1.wav", "f2.mp3"]);
    const [f1, f2] = files.map((f) => f.fileId) as [number, number];
    const paths = [await storedKey(f1), await storedKey(f2)];
    expect(await exists(paths[0]!)).toBe(true);
    await t.db.transcript.create({
      data: {
        fileId: f1,
        language: "zh",
        asrResult: [{ spkName: "说话人1", startTime: 0, endTime: 1000, text: "你好" }],
      },
    });
    await t.db.transcriptionTask.create({ data: { fileId: f1, userId: user.userId, status: 2 } });

    const notBinned = await post("/api/v1/audio/record/delete_forever", user).send({ fileIds: `${f1}` });
    expect(notBinned.body.status_code).toBe(30001);
    expect(await exists(paths[0]!)).toBe(true);

    await post("/api/v1/audio/record/delete_batch", user).send({ fileIds: `${f1},${f2}` });
    const res = await post("/api/v1/audio/record/delete_forever", user).send({ fileIds: `${f1},${f2}` });
    expect(res.body).toMatchObject({ status_code: 1, data: { fileIds: [f1, f2] } });
    expect(await t.db.audioRecord.count({ where: { fileId: { in: [f1, f2] } } })).toBe(0);
    expect(await t.db.transcript.count({ where: { fileId: f1 } })).toBe(0);
    expect(await t.db.transcriptionTask.count({ where: { fileId: f1 } })).toBe(0);
    for (const p of paths) expect(await exists(p)).toBe(false);
    expect((await get("/api/v3/audio/recycle_list", user)).body.data.total).toBe(0);
    const again = await post("/api/v1/audio/record/delete_forever", user).send({ fileIds: `${f1}` });
    expect(again.body.status_code).toBe(30001);
  });

  it("delete_forever gives back the charge of a transcription still queued", async () => {
    const { user, files } = await newUserWith(["queued.wav"]);
    const fileId = files[0]!.fileId;
    const card = await t.db.timeCard.create({
      data: {
        userId: user.userId,
        seconds: 100,
        remaining: 98,
        expiresAt: new Date(Date.now() + 86_400_000),
        source: "gift",
        refId: `q-${fileId}`,
      },
    });
    const day = businessDay(new Date(), t.config.BUSINESS_TZ);
    await t.db.quotaDay.create({ data: { userId: user.userId, day, secondsUsed: 2 } });
    const task = await t.db.transcriptionTask.create({
      data: { fileId, userId: user.userId, status: 3, secondsCharged: 2, quotaDay: day },
    });
    await t.db.timeCardDeduction.create({ data: { taskId: task.id, cardId: card.id, seconds: 2 } });
    await t.db.audioRecord.update({ where: { fileId }, data: { fileStatus: 3 } });

    await post("/api/v1/audio/record/delete_record", user).send({ fileId });
    const res = await post("/api/v1/audio/record/delete_forever", user).send({ fileIds: String(fileId) });
    expect(res.body.status_code).toBe(1);
    expect((await t.db.timeCard.findUniqueOrThrow({ where: { id: card.id } })).remaining).toBe(100);
    expect(
      (await t.db.quotaDay.findUniqueOrThrow({ where: { userId_day: { userId: user.userId, day } } })).secondsUsed,
    ).toBe(0);
  });

  it.each([
    ["delete_record", {}],
    ["delete_record", { fileId: "x" }],
    ["delete_batch", {}],
    ["delete_batch", { fileIds: "a,b" }],
    ["restore", { fileIds: "" }],
    ["delete_forever", { fileIds: { $gt: 0 } }],
  ])("%s refuses %j with 10002", async (call, body) => {
    const res = await post(`/api/v1/audio/record/${call}`).send(body);
    expect(res.body.status_code).toBe(10002);
  });
});

describe("POST /api/v1/audio/record/update_record", () => {
  it("renames, keeping the extension when the new name has none", async () => {
    const rec = await upload(alice, "before.wav");
    const plain = await post("/api/v1/audio/record/update_record").send({ fileId: rec.fileId, fileName: "季度会议" });
    expect(plain.body).toMatchObject({ status_code: 1, data: { fileId: rec.fileId, fileName: "季度会议.wav" } });
    const withExt = await post("/api/v1/audio/record/update_record").send({
      fileId: rec.fileId,
      fileName: "v1.2 final.WAV",
    });
    expect(withExt.body.data.fileName).toBe("v1.2 final.WAV");
    const dotted = await post("/api/v1/audio/record/update_record").send({ fileId: rec.fileId, fileName: "v1.2" });
    expect(dotted.body.data.fileName).toBe("v1.2.wav");
    const form = await post("/api/v1/audio/record/update_record")
      .type("form")
      .send({ fileId: String(rec.fileId), fileName: "a/b\\c" });
    expect(form.body.data.fileName).toBe("a_b_c.wav");
    const got = await get(`/api/v3/audio/record/get_record_by_id?fileId=${rec.fileId}`);
    expect(got.body.data.fileName).toBe("a_b_c.wav");
  });

  it("stores HTML and SQL as text; caps the name at 100 characters", async () => {
    const rec = await upload(alice, "x.wav");
    const html = "<img src=x onerror=alert(1)>'; DROP TABLE audio_records;--";
    const res = await post("/api/v1/audio/record/update_record").send({ fileId: rec.fileId, fileName: html });
    expect(res.body.data.fileName).toBe(`${html}.wav`);
    const hundred = await post("/api/v1/audio/record/update_record").send({
      fileId: rec.fileId,
      fileName: "字".repeat(100),
    });
    expect(hundred.body.status_code).toBe(1);
    expect([...hundred.body.data.fileName].length).toBe(100);
    expect(hundred.body.data.fileName.endsWith(".wav")).toBe(true);
  });

  it.each([
    [{ fileName: "x" }],
    [{ fileId: "abc", fileName: "x" }],
    [{ fileId: 1 }],
    [{ fileId: 1, fileName: "" }],
    [{ fileId: 1, fileName: "x".repeat(101) }],
    [{ fileId: 1, fileName: "y".repeat(1_000_000) }],
    [{ fileId: 1, fileName: "tab\there" }],
    [{ fileId: 1, fileName: ["a"] }],
  ])("refuses %# with 10002", async (body) => {
    const res = await post("/api/v1/audio/record/update_record").send(body);
    expect(res.body.status_code).toBe(10002);
  });
});

describe("one record: get_record_by_id, s/file/info", () => {
  it("answers the record and ffprobe's facts", async () => {
    const rec = await upload(alice, "facts.mp3");
    const got = await get(`/api/v3/audio/record/get_record_by_id?fileId=${rec.fileId}`);
    expect(got.body).toMatchObject({
      status_code: 1,
      data: { fileId: rec.fileId, fileName: "facts.mp3", format: "mp3", fileStatus: 0, progress: 0, menuId: null },
    });
    const info = await get(`/api/v1/s/file/info?fileId=${rec.fileId}`);
    expect(info.body.data).toEqual({
      fileId: rec.fileId,
      fileName: "facts.mp3",
      format: "mp3",
      fileSize: expect.any(Number),
      timeLen: 3,
      sampleRate: 22_050,
      channels: 1,
      codec: "mp3",
      createTime: expect.any(Number),
    });
  });

  it.each(["fileId=abc", "fileId=0", "fileId=99999999999", ""])("refuses %s with 10002", async (q) => {
    expect((await get(`/api/v3/audio/record/get_record_by_id?${q}`)).body.status_code).toBe(10002);
    expect((await get(`/api/v1/s/file/info?${q}`)).body.status_code).toBe(10002);
  });

  it("an unknown id is 30001", async () => {
    expect((await get("/api/v3/audio/record/get_record_by_id?fileId=2147483000")).body.status_code).toBe(30001);
  });
});

describe("GET /api/v1/audio/check_audio", () => {
  let user: SignedIn;
  let fileId: number;
  const day = () => businessDay(new Date(), t.config.BUSINESS_TZ);
  const check = async () => (await get(`/api/v1/audio/check_audio?fileId=${fileId}`, user)).body;

  beforeAll(async () => {
    const made = await newUserWith(["check.wav"]);
    user = made.user;
    fileId = made.files[0]!.fileId;
  });

  it("can transcribe with quota and card time left (a new account's welcome cards)", async () => {
    expect(await check()).toEqual({
      status_code: 1,
      status_msg: "success",
      data: { fileId, exists: true, fileStatus: 0, timeLen: 2, canTranscribe: true },
    });
  });

  it("20001 when valid time cards' remaining seconds cannot cover it (expired cards do not count)", async () => {
    await t.db.timeCard.updateMany({ where: { userId: user.userId }, data: { remaining: 1 } });
    expect((await check()).data).toMatchObject({ canTranscribe: false, reason: 20001 });
    await t.db.timeCard.updateMany({
      where: { userId: user.userId },
      data: { remaining: 3600, expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await check()).data).toMatchObject({ canTranscribe: false, reason: 20001 });
    await t.db.timeCard.updateMany({
      where: { userId: user.userId },
      data: { expiresAt: new Date(Date.now() + 86_400_000) },
    });
    expect((await check()).data).toMatchObject({ canTranscribe: true });
  });

  it("50002 when today's quota cannot fit it (member and non-member limits)", async () => {
    const member = await t.db.user.findUniqueOrThrow({ where: { id: user.userId } });
    expect(member.memberEffectiveTime!.getTime()).toBeGreaterThan(Date.now());
    await t.db.quotaDay.create({
      data: { userId: user.userId, day: day(), secondsUsed: t.config.DAILY_QUOTA_SECONDS_MEMBER - 1 },
    });
    expect((await check()).data).toMatchObject({ canTranscribe: false, reason: 50002 });
    await t.db.quotaDay.update({
      where: { userId_day: { userId: user.userId, day: day() } },
      data: { secondsUsed: t.config.DAILY_QUOTA_SECONDS - 1 },
    });
    expect((await check()).data).toMatchObject({ canTranscribe: true });
    await t.db.user.update({ where: { id: user.userId }, data: { memberEffectiveTime: null } });
    expect((await check()).data).toMatchObject({ canTranscribe: false, reason: 50002 });
    await t.db.quotaDay.delete({ where: { userId_day: { userId: user.userId, day: day() } } });
    expect((await check()).data).toMatchObject({ canTranscribe: true });
  });

  it("50001 when the audio is longer than 3 hours", async () => {
    await t.db.audioRecord.update({ where: { fileId }, data: { timeLen: 3 * 3600 + 1 } });
    expect((await check()).data).toMatchObject({ canTranscribe: false, reason: 50001, timeLen: 10_801 });
    await t.db.audioRecord.update({ where: { fileId }, data: { timeLen: 2 } });
  });
});

describe("the OpenAPI document", () => {
  it("describes the records calls with their schemas", async () => {
    const res = await t.http().get("/voice_yuelu/docs/json");
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { parameters?: { name: string }[] }>>;
    for (const p of [
      "/voice_yuelu/api/v1/audio/upload",
      "/voice_yuelu/api/v3/audio/all_list",
      "/voice_yuelu/api/v2/menu/create",
      "/voice_yuelu/api/v1/audio/download/batch",
    ]) {
      expect(paths[p], p).toBeDefined();
    }
    const list = paths["/voice_yuelu/api/v3/audio/all_list"]!.get!;
    expect(list.parameters?.map((x) => x.name)).toEqual(
      expect.arrayContaining(["page", "pageSize", "fileName", "menuId"]),
    );
  });
});

describe("storage layout", () => {
  it("keeps each user's media under media/<userId>/", async () => {
    const rec = await upload(alice, "where.wav");
    const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: rec.fileId } });
    expect(path.dirname(row.storageKey)).toBe(`media/${alice.userId}`);
  });
});
