import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { crc32, inflateRawSync } from "node:zlib";
import multipart from "@fastify/multipart";
import { AppError } from "@yuelu/domain";
import Fastify from "fastify";
import type { Response } from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiveUpload, UploadRefused } from "../../apps/api/src/modules/records/upload.ts";
import { type MediaFixtures, makeMediaFixtures } from "../fixtures/media.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

// Upload (streaming, checks, nothing left behind) and the blob endpoints (download with Range, zip).

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
let fx: MediaFixtures;
let origin: string;

beforeAll(async () => {
  [fx, t] = await Promise.all([makeMediaFixtures(), createTestApp()]);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  alice = await signIn(t);
  bob = await signIn(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fx?.cleanup();
});

const UPLOAD = "/voice_yuelu/api/v1/audio/upload";
const api = (p: string) => `/voice_yuelu${p}`;

function upload(
  who: SignedIn | undefined,
  file: string,
  name = path.basename(file),
  options: { fields?: Record<string, string>; query?: string } = {},
) {
  let req = t
    .http()
    .post(`${UPLOAD}${options.query ? `?${options.query}` : ""}`)
    .set("Cookie", who?.cookie ?? "");
  for (const [k, v] of Object.entries(options.fields ?? {})) req = req.field(k, v);
  return req.attach("file", file, name);
}

/** Collects a response body as a Buffer whatever its content type. */
function binary(res: Response, callback: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on("data", (c: Buffer) => chunks.push(c));
  res.on("end", () => callback(null, Buffer.concat(chunks)));
}

/** What the store holds for a user (finished files and any `.part` leftovers). */
async function storedFiles(userId: number): Promise<string[]> {
  try {
    return await readdir(path.join(t.config.dataDir, "files", "media", String(userId)));
  } catch {
    return [];
  }
}

/** What is left in the upload staging area (DATA_DIR/tmp/<one folder per upload>/…). */
async function stagedFiles(): Promise<string[]> {
  const tmp = path.join(t.config.dataDir, "tmp");
  const found: string[] = [];
  for (const folder of await readdir(tmp).catch(() => [] as string[])) {
    found.push(folder, ...(await readdir(path.join(tmp, folder)).catch(() => [] as string[])));
  }
  return found;
}

async function rowsOf(userId: number) {
  return t.db.audioRecord.count({ where: { userId } });
}

/** A user with no records yet, to check that a refused upload leaves nothing. */
async function freshUser() {
  return signIn(t);
}

async function expectNothingLeft(user: SignedIn) {
  expect(await storedFiles(user.userId)).toEqual([]);
  expect(await stagedFiles()).toEqual([]);
  expect(await rowsOf(user.userId)).toBe(0);
}

describe("POST /api/v1/audio/upload", () => {
  it("needs a session (10001) and stores nothing", async () => {
    const res = await upload(undefined, fx.wav);
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });

  it("streams a wav to the store and answers the record, with ffprobe's facts stored", async () => {
    const res = await upload(alice, fx.wav, "会议录音 2024.wav");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status_code: 1,
      data: { fileName: "会议录音 2024.wav", timeLen: 2, fileStatus: 0, format: "wav", fileSize: 64_078 },
    });
    const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: res.body.data.fileId } });
    expect(row).toMatchObject({
      userId: alice.userId,
      sampleRate: 16_000,
      channels: 1,
      codec: "pcm_s16le",
      menuId: null,
    });
    expect(row.storageKey).toMatch(new RegExp(`^media/${alice.userId}/[0-9a-f-]{36}\\.wav$`));
    expect(await t.files.withLocalCopy(row.storageKey, (file) => readFile(file))).toEqual(await readFile(fx.wav));
  });

  it.each([
    ["mp3", () => fx.mp3, { format: "mp3", timeLen: 3 }, { codec: "mp3", sampleRate: 22_050, channels: 1 }],
    ["m4a", () => fx.m4a, { format: "m4a", timeLen: 2 }, { codec: "aac", channels: 1 }],
    ["mp4 video", () => fx.mp4, { format: "mp4", timeLen: 1 }, { codec: "aac" }],
    [
      "mkv (Opus, stereo)",
      () => fx.mkv,
      { format: "mkv", timeLen: 1 },
      { codec: "opus", channels: 2, sampleRate: 48_000 },
    ],
  ])("accepts %s", async (_label, file, data, facts) => {
    const res = await upload(alice, file());
    expect(res.body).toMatchObject({ status_code: 1, data });
    const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: res.body.data.fileId } });
    expect(row).toMatchObject(facts);
  });

  it.each([
    ["webm", "opus"],
    ["weba", "opus"],
    ["ogg", "vorbis"],
    ["oga", "opus"],
    ["opus", "opus"],
    ["flac", "flac"],
    ["aiff", "pcm_s16be"],
    ["caf", "alac"],
  ] as const)("accepts .%s (issue 29), probed as %s, served with its own type", async (ext, codec) => {
    const res = await upload(alice, fx.containers[ext]);
    expect(res.body).toMatchObject({ status_code: 1, data: { format: ext, timeLen: 2 } });
    const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: res.body.data.fileId } });
    expect(row).toMatchObject({ codec, format: ext });
    const download = await t
      .http()
      .get(`/voice_yuelu/api/v3/audio/download?fileId=${row.fileId}&inline=1`)
      .set("Cookie", alice.cookie);
    expect(download.status).toBe(200);
    expect(download.headers["content-type"]).toMatch(/^audio\//);
  });

  it("measures a browser recording whose header has no length (MediaRecorder WebM) from its packets", async () => {
    const res = await upload(alice, fx.liveWebm, "录音-20261125-101500.webm");
    expect(res.body).toMatchObject({ status_code: 1, data: { format: "webm", timeLen: 3 } });
  });

  it("still refuses a disguised file under a new extension, and names every accepted one", async () => {
    const res = await upload(alice, fx.exe, "voice-note.opus");
    expect(res.body.status_code).toBe(20004);
    const other = await upload(alice, fx.text, "notes.ogx");
    expect(other.body.status_code).toBe(20004);
    for (const ext of ["wav", "webm", "opus", "flac", "caf"]) expect(other.body.status_msg).toContain(ext);
  });

  it("keeps the user's name but strips control characters and caps it at 100 characters", async () => {
    const long = `${"长".repeat(150)}.MP3`;
    const res = await upload(alice, fx.mp3, long);
    expect(res.body.status_code).toBe(1);
    expect([...res.body.data.fileName].length).toBe(100);
    expect(res.body.data.fileName.endsWith(".MP3")).toBe(true);
    expect(res.body.data.format).toBe("mp3");

    const odd = await upload(alice, fx.wav, "a\u202Egnp.wav");
    expect(odd.body.data.fileName).toBe("agnp.wav");
    const html = await upload(alice, fx.wav, "<img src=x onerror=alert(1)>'; DROP TABLE audio_records;--.wav");
    expect(html.body.data.fileName).toBe("<img src=x onerror=alert(1)>'; DROP TABLE audio_records;--.wav");
  });

  it("reads quotes in a name as browsers send them (%22), so the name is stored as typed", async () => {
    // Chromium, Firefox and undici's FormData write `"` as %22 in a multipart filename (WHATWG).
    const boundary = "----yuelu-quote-test";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="jfk 演讲 %22quote%22.wav"\r\n` +
          "Content-Type: audio/wav\r\n\r\n",
      ),
      await readFile(fx.wav),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t
      .http()
      .post(UPLOAD)
      .set("Cookie", alice.cookie)
      .set("content-type", `multipart/form-data; boundary=${boundary}`)
      .send(body);
    expect(res.body.status_msg).toBe("success");
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.fileName).toBe('jfk 演讲 "quote".wav');
  });

  it("puts the record in a folder given as a field before the file, or in the query", async () => {
    const folder = await t.db.folder.create({ data: { userId: alice.userId, menuName: "uploads" } });
    const byField = await upload(alice, fx.wav, "f.wav", { fields: { menuId: String(folder.menuId) } });
    const byQuery = await upload(alice, fx.wav, "q.wav", { query: `menuId=${folder.menuId}&timeStamp=1&source=0` });
    for (const res of [byField, byQuery]) {
      expect(res.body.status_code).toBe(1);
      const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: res.body.data.fileId } });
      expect(row.menuId).toBe(folder.menuId);
    }
  });

  it("refuses another user's folder with 30001 and leaves nothing", async () => {
    const user = await freshUser();
    const folder = await t.db.folder.create({ data: { userId: bob.userId, menuName: "bob's" } });
    const res = await upload(user, fx.wav, "x.wav", { fields: { menuId: String(folder.menuId) } });
    expect(res.body).toMatchObject({ status_code: 30001, data: null });
    await expectNothingLeft(user);
  });

  it("refuses a malformed menuId or uploadId with 10002 naming it", async () => {
    const bad = await upload(alice, fx.wav, "x.wav", { fields: { menuId: "abc" } });
    expect(bad.body.status_code).toBe(10002);
    expect(bad.body.status_msg).toContain("menuId");
    const shortId = await upload(alice, fx.wav, "x.wav", { query: "uploadId=abc" });
    expect(shortId.body.status_code).toBe(10002);
    expect(shortId.body.status_msg).toContain("uploadId");
    const weird = await upload(alice, fx.wav, "x.wav", { fields: { uploadId: "'; DROP TABLE x;--" } });
    expect(weird.body.status_code).toBe(10002);
  });

  it("is retry-safe with an uploadId: the same id answers the same record, once", async () => {
    const user = await freshUser();
    const uploadId = `up_${randomBytes(8).toString("hex")}`;
    const first = await upload(user, fx.wav, "retry.wav", { fields: { uploadId }, query: `uploadId=${uploadId}` });
    const second = await upload(user, fx.wav, "retry.wav", { fields: { uploadId } });
    expect(first.body.status_code).toBe(1);
    expect(second.body).toEqual(first.body);
    expect(await rowsOf(user.userId)).toBe(1);
    expect(await storedFiles(user.userId)).toHaveLength(1);

    // Two at once with one id: still one record and one file.
    const racing = `race_${randomBytes(6).toString("hex")}`;
    const [a, b] = await Promise.all([
      upload(user, fx.mp3, "r.mp3", { fields: { uploadId: racing } }),
      upload(user, fx.mp3, "r.mp3", { fields: { uploadId: racing } }),
    ]);
    expect(a.body.data.fileId).toBe(b.body.data.fileId);
    expect(await rowsOf(user.userId)).toBe(2);
    expect(await storedFiles(user.userId)).toHaveLength(2);
  });

  it("a record in the bin lets go of its uploadId: the retry uploads afresh", async () => {
    const user = await freshUser();
    const uploadId = `bin_${randomBytes(6).toString("hex")}`;
    const first = await upload(user, fx.wav, "a.wav", { fields: { uploadId } });
    await t.db.audioRecord.update({ where: { fileId: first.body.data.fileId }, data: { deletedAt: new Date() } });
    const again = await upload(user, fx.wav, "a.wav", { fields: { uploadId } });
    expect(again.body.status_code).toBe(1);
    expect(again.body.data.fileId).not.toBe(first.body.data.fileId);
  });

  it("refuses an extension outside the accepted list with 20004 and leaves nothing", async () => {
    const user = await freshUser();
    for (const name of ["notes.txt", "tone.ogx", "tone", "tone.wav.exe"]) {
      const res = await upload(user, fx.wav, name);
      expect(res.body).toMatchObject({ status_code: 20004, data: null });
      expect(res.body.status_msg).toContain("文件上传失败");
    }
    await expectNothingLeft(user);
  });

  it("refuses a renamed executable (.exe → .mp3) by its content: 20004, no file, no row", async () => {
    const user = await freshUser();
    const res = await upload(user, fx.exe, "setup.mp3").query({ lang: "en" });
    expect(res.body).toMatchObject({ status_code: 20004, data: null });
    expect(res.body.status_msg).toBe("File upload failed: the file's content is not audio or video");
    await expectNothingLeft(user);
  });

  it("refuses text renamed to .wav (unreadable as media): 20004, nothing left", async () => {
    const user = await freshUser();
    const res = await upload(user, fx.text, "notes.wav").query({ lang: "en" });
    expect(res.body).toMatchObject({ status_code: 20004 });
    expect(res.body.status_msg).toContain("could not be read as audio or video");
    await expectNothingLeft(user);
  });

  it("refuses a video without an audio track", async () => {
    const user = await freshUser();
    const res = await upload(user, fx.silentVideo, "screen.mp4").query({ lang: "en" });
    expect(res.body).toMatchObject({ status_code: 20004 });
    expect(res.body.status_msg).toContain("no audio track");
    await expectNothingLeft(user);
  });

  it("refuses media longer than 5 hours (a real 5 h 1 min mp3) with a clear message, nothing left", async () => {
    const user = await freshUser();
    const res = await upload(user, fx.longMp3, "all-day.mp3");
    expect(res.body).toMatchObject({ status_code: 20004, data: null });
    expect(res.body.status_msg).toBe("文件上传失败：音视频时长超过5小时");
    const en = await upload(user, fx.longMp3, "all-day.mp3").set("lang", "en");
    expect(en.body.status_msg).toBe("File upload failed: it is longer than 5 hours");
    await expectNothingLeft(user);
  });

  it("refuses a file whose container claims more than 5 hours", async () => {
    const user = await freshUser();
    const res = await upload(user, fx.claimsLong, "claims.mkv");
    expect(res.body).toMatchObject({ status_code: 20004 });
    await expectNothingLeft(user);
  });

  it("refuses an empty file", async () => {
    const user = await freshUser();
    const res = await t.http().post(UPLOAD).set("Cookie", user.cookie).attach("file", Buffer.alloc(0), "empty.wav");
    expect(res.body.status_code).toBe(20004);
    await expectNothingLeft(user);
  });

  it("answers 10002 without a file part, or for a JSON body", async () => {
    const noFile = await t.http().post(UPLOAD).set("Cookie", alice.cookie).field("menuId", "0");
    expect(noFile.body.status_code).toBe(10002);
    expect(noFile.body.status_msg).toContain("file");
    const json = await t.http().post(UPLOAD).set("Cookie", alice.cookie).send({ file: "x" });
    expect(json.body.status_code).toBe(10002);
  });

  it("refuses a body announced over 1 GiB with HTTP 413 / 20004 before reading it", async () => {
    const user = await freshUser();
    const boundary = `----yuelu${randomBytes(8).toString("hex")}`;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${origin}${UPLOAD}?lang=en`, {
        method: "POST",
        headers: {
          cookie: user.cookie,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(2 * 1024 ** 3),
        },
      });
      req.on("response", (r) => {
        let body = "";
        r.on("data", (c) => (body += c));
        r.on("end", () => {
          resolve({ status: r.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on("error", reject);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.wav"\r\n\r\n`);
      req.write(Buffer.alloc(64 * 1024));
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      status_code: 20004,
      status_msg: "File upload failed: the file is larger than 1 GB",
    });
    await expectNothingLeft(user);
  });

  it("an upload the client aborts mid-body leaves no file and no row", async () => {
    const user = await freshUser();
    const boundary = `----yuelu${randomBytes(8).toString("hex")}`;
    const wav = await readFile(fx.wav);
    const req = http.request(`${origin}${UPLOAD}`, {
      method: "POST",
      headers: {
        cookie: user.cookie,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(50 * 1024 * 1024),
      },
    });
    req.on("error", () => {}); // we are the ones cutting it
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.wav"\r\n\r\n`);
    req.write(wav);
    req.write(Buffer.alloc(512 * 1024));
    // Wait until the server is staging the file, then cut the connection.
    const writing = await waitFor(async () => (await stagedFiles()).some((n) => n.endsWith(".part")));
    expect(writing).toBe(true);
    req.destroy();
    expect(await waitFor(async () => (await stagedFiles()).length === 0)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    await expectNothingLeft(user);
  });
});

describe("a server that cannot probe media (FFPROBE_PATH names nothing that runs)", () => {
  it("refuses the upload before storing a byte: 70001 naming ffprobe, in the user's language; nothing left", async () => {
    const broken = await createTestApp({ FFPROBE_PATH: "/nonexistent/ffprobe" });
    try {
      const user = await signIn(broken);
      // The server answers before reading the body (nothing is stored); on a busy machine the client
      // may still be writing when the connection closes and see EPIPE instead of the answer: ask again.
      const upload = async (url: string) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await broken.http().post(url).set("Cookie", user.cookie).attach("file", fx.mp3, "meeting.mp3");
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EPIPE" || attempt === 5) throw error;
          }
        }
      };
      const zh = await upload(UPLOAD);
      expect(zh.body.status_code).toBe(70001);
      expect(zh.body.status_msg).toBe("服务引擎不可用：服务器暂时无法读取音视频文件，请稍后再试或联系站点管理员");
      const en = await upload(`${UPLOAD}?lang=en`);
      expect(en.body.status_msg).toContain("this server cannot read audio or video files right now");
      expect(await readdir(path.join(broken.config.dataDir, "files")).catch(() => [])).toEqual([]);
      expect(await broken.db.audioRecord.count({ where: { userId: user.userId } })).toBe(0);
      const ready = await broken.http().get("/readyz");
      expect(ready.body.api.tools[0]).toMatchObject({ name: "ffprobe", available: false });
      expect(ready.body.missing.ffprobe).toContain("FFPROBE_PATH=/nonexistent/ffprobe");
    } finally {
      await broken.close();
    }
  });
});

describe("the upload service on its own (limits and stores a test chooses)", () => {
  /** A bare Fastify with multipart and one route calling receiveUpload with these deps. */
  async function miniApp(user: SignedIn, deps: Partial<Parameters<typeof receiveUpload>[0]>) {
    const mini = Fastify();
    await mini.register(multipart);
    mini.post("/up", async (req, reply) => {
      try {
        const tmpDir = path.join(t.config.dataDir, "tmp");
        return await receiveUpload(
          { db: t.db, domain: t.domain, files: t.files, log: mini.log, lang: "zh", tmpDir, tools: {}, ...deps },
          user.userId,
          req,
          {
            menuId: null,
          },
        );
      } catch (error) {
        if (error instanceof UploadRefused) {
          return reply.code(error.httpStatus).send({ code: error.code, reason: error.refusal });
        }
        if (error instanceof AppError) return reply.send({ code: error.code });
        throw error;
      }
    });
    await mini.listen({ port: 0, host: "127.0.0.1" });
    return mini;
  }

  /** Sends the wav fixture followed by `padding` zero bytes, chunked (no Content-Length). */
  async function sendChunked(mini: Awaited<ReturnType<typeof miniApp>>, padding: number) {
    const boundary = `----yuelu${randomBytes(8).toString("hex")}`;
    const wav = await readFile(fx.wav);
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`http://127.0.0.1:${(mini.server.address() as AddressInfo).port}/up`, {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      });
      expect(req.getHeader("content-length")).toBeUndefined();
      req.on("error", reject);
      req.on("response", (r) => {
        let body = "";
        r.on("data", (c) => (body += c));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\n\r\n`);
      req.write(wav);
      for (let sent = 0; sent < padding; sent += 64 * 1024) req.write(Buffer.alloc(64 * 1024));
      req.end(`\r\n--${boundary}--\r\n`);
    });
  }

  // The real limit is 1 GiB; the service takes a smaller one here so the test stays small.
  it("a file over the limit sent chunked is cut off there: 413 / 20004, the rest drained, nothing left", async () => {
    const user = await freshUser();
    const mini = await miniApp(user, { maxBytes: 200_000 });
    try {
      const res = await sendChunked(mini, 512 * 1024);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toEqual({ code: 20004, reason: "too_large" });
      await expectNothingLeft(user);
    } finally {
      await mini.close();
    }
  });

  it("a store that fails (disk full, S3 away) answers 20002 and leaves no row and no staged file", async () => {
    const user = await freshUser();
    const failing = {
      ...t.files,
      putFile: async () => {
        throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      },
    };
    const mini = await miniApp(user, { files: failing });
    try {
      const res = await sendChunked(mini, 128 * 1024);
      expect(JSON.parse(res.body)).toEqual({ code: 20002 });
      await expectNothingLeft(user);
    } finally {
      await mini.close();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

describe("GET /api/v3/audio/download", () => {
  let fileId: number;
  let bytes: Buffer;
  beforeAll(async () => {
    const res = await upload(alice, fx.wav, "下载 test.wav");
    fileId = res.body.data.fileId;
    bytes = await readFile(fx.wav);
  });
  const download = (query: string, who: SignedIn | null = alice) =>
    t
      .http()
      .get(api(`/api/v3/audio/download?${query}`))
      .set("Cookie", who?.cookie ?? "")
      .buffer(true)
      .parse(binary);

  it("sends the original as an attachment with an RFC 5987 UTF-8 name", async () => {
    const res = await download(`fileId=${fileId}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("audio/wav");
    expect(res.headers["accept-ranges"]).toBe("bytes");
    expect(res.headers["content-length"]).toBe(String(bytes.length));
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="__ test.wav"; filename*=UTF-8''${encodeURIComponent("下载 test.wav")}`,
    );
    expect(Buffer.compare(res.body, bytes)).toBe(0);
  });

  it("inline=1 (the record's audioPath) serves it inline", async () => {
    const res = await download(`fileId=${fileId}&inline=1`);
    expect(res.headers["content-disposition"]).toMatch(/^inline; /);
  });

  it("answers a byte range with 206 and exactly those bytes", async () => {
    const res = await download(`fileId=${fileId}&inline=1`).set("Range", "bytes=100-1099");
    expect(res.status).toBe(206);
    expect(res.headers["content-range"]).toBe(`bytes 100-1099/${bytes.length}`);
    expect(res.headers["content-length"]).toBe("1000");
    expect(Buffer.compare(res.body, bytes.subarray(100, 1100))).toBe(0);

    const open = await download(`fileId=${fileId}`).set("Range", `bytes=${bytes.length - 10}-`);
    expect(open.status).toBe(206);
    expect(Buffer.compare(open.body, bytes.subarray(bytes.length - 10))).toBe(0);

    const suffix = await download(`fileId=${fileId}`).set("Range", "bytes=-44");
    expect(suffix.status).toBe(206);
    expect(Buffer.compare(suffix.body, bytes.subarray(bytes.length - 44))).toBe(0);
  });

  it("answers 416 for a range past the end, and the whole file for a range it does not serve", async () => {
    const past = await download(`fileId=${fileId}`).set("Range", `bytes=${bytes.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${bytes.length}`);
    const multi = await download(`fileId=${fileId}`).set("Range", "bytes=0-1,5-6");
    expect(multi.status).toBe(200);
    expect(multi.body.length).toBe(bytes.length);
  });

  it("HEAD answers the headers (length, ranges) without a body", async () => {
    const head = await t
      .http()
      .head(api(`/api/v3/audio/download?fileId=${fileId}`))
      .set("Cookie", alice.cookie);
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(bytes.length));
    expect(head.headers["accept-ranges"]).toBe("bytes");
    const ranged = await t
      .http()
      .head(api(`/api/v3/audio/download?fileId=${fileId}`))
      .set("Cookie", alice.cookie)
      .set("Range", "bytes=0-9");
    expect(ranged.status).toBe(206);
    expect(ranged.headers["content-range"]).toBe(`bytes 0-9/${bytes.length}`);
  });

  it("refuses another user's record (30001), no session (10001), bad ids (10002)", async () => {
    const foreign = await download(`fileId=${fileId}`, bob);
    expect(JSON.parse(foreign.body.toString())).toMatchObject({ status_code: 30001, data: null });
    const anonymous = await download(`fileId=${fileId}`, null);
    expect(JSON.parse(anonymous.body.toString()).status_code).toBe(10001);
    const bad = await download("fileId=abc");
    expect(JSON.parse(bad.body.toString()).status_code).toBe(10002);
  });

  it("answers 20003 when the stored file is missing", async () => {
    const res = await upload(alice, fx.wav, "gone.wav");
    const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: res.body.data.fileId } });
    await t.files.delete(row.storageKey);
    const gone = await download(`fileId=${row.fileId}`);
    expect(JSON.parse(gone.body.toString()).status_code).toBe(20003);
  });
});

/** Entries of a zip (stored or deflated: `method` 0 or 8, the data inflated). */
function readZip(zip: Buffer): { name: string; data: Buffer; crc: number; method: number }[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const entries: { name: string; data: Buffer; crc: number; method: number }[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(p)).toBe(0x02014b50);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const size = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLength).toString("utf8");
    expect([0, 8]).toContain(method);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    entries.push({ name, data: method === 8 ? inflateRawSync(data) : data, crc, method });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

describe("/api/v1/audio/download/batch", () => {
  let ids: number[];
  beforeAll(async () => {
    const a = await upload(alice, fx.wav, "same.wav");
    const b = await upload(alice, fx.wav, "same.wav");
    const c = await upload(alice, fx.mp3, "其他.mp3");
    ids = [a.body.data.fileId, b.body.data.fileId, c.body.data.fileId];
  });

  it("streams a zip of the originals with de-duplicated names (GET and POST)", async () => {
    const wav = await readFile(fx.wav);
    const mp3 = await readFile(fx.mp3);
    const get = await t
      .http()
      .get(api(`/api/v1/audio/download/batch?fileIds=${ids.join(",")}`))
      .set("Cookie", alice.cookie)
      .buffer(true)
      .parse(binary);
    const post = await t
      .http()
      .post(api("/api/v1/audio/download/batch"))
      .set("Cookie", alice.cookie)
      .send({ fileIds: ids.join(",") })
      .buffer(true)
      .parse(binary);
    for (const res of [get, post]) {
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/zip");
      expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="records-\d{8}-\d{6}\.zip"/);
      expect(res.headers["content-length"]).toBe(String(res.body.length));
      const entries = readZip(res.body);
      expect(entries.map((e) => e.name)).toEqual(["same.wav", "same (1).wav", "其他.mp3"]);
      expect(Buffer.compare(entries[0]!.data, wav)).toBe(0);
      expect(Buffer.compare(entries[1]!.data, wav)).toBe(0);
      expect(Buffer.compare(entries[2]!.data, mp3)).toBe(0);
      for (const e of entries) expect(e.crc).toBe(crc32(e.data));
      // media is stored as it is
      expect(entries.map((e) => e.method)).toEqual([0, 0, 0]);
    }
  });

  describe("with the transcripts (include, format)", () => {
    const SEGMENTS = [
      { spkName: "Speaker 1", startTime: 0, endTime: 2500, text: "大家好，开始开会。" },
      { spkName: "张三", startTime: 3000, endTime: 6000, text: "先看上周的进展。" },
    ];
    /** alice's 会议.wav and 访谈.mp3, transcribed; 草稿.wav not */
    let meeting: number;
    let interview: number;
    let draft: number;
    beforeAll(async () => {
      meeting = (await upload(alice, fx.wav, "会议.wav")).body.data.fileId;
      interview = (await upload(alice, fx.mp3, "访谈.mp3")).body.data.fileId;
      draft = (await upload(alice, fx.wav, "草稿.wav")).body.data.fileId;
      for (const fileId of [meeting, interview]) {
        await t.db.transcript.create({ data: { fileId, asrResult: SEGMENTS, language: "zh" } });
        await t.db.audioRecord.update({ where: { fileId }, data: { fileStatus: 2 } });
      }
    });
    const zipOf = async (query: string, lang = "zh") => {
      const res = await t
        .http()
        .get(api(`/api/v1/audio/download/batch?${query}`))
        .set("Cookie", alice.cookie)
        .set("lang", lang)
        .buffer(true)
        .parse(binary);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/zip");
      return new Map(readZip(res.body).map((e) => [e.name, e]));
    };

    it("puts each transcript beside its audio (both), as the single-record txt export makes it", async () => {
      const entries = await zipOf(`fileIds=${meeting},${interview}&include=both&format=txt`);
      expect([...entries.keys()]).toEqual(["会议.wav", "会议.txt", "访谈.mp3", "访谈.txt"]);
      expect(Buffer.compare(entries.get("会议.wav")!.data, await readFile(fx.wav))).toBe(0);
      const single = await t
        .http()
        .get(api(`/api/v3/audio/text/export_txt?fileId=${meeting}`))
        .set("Cookie", alice.cookie)
        .set("lang", "zh");
      const txt = entries.get("会议.txt")!.data.toString("utf8");
      expect(txt).toBe(single.text);
      // default speaker labels in the reader's language, given names as they are
      expect(txt).toContain("说话人1  00:00:00\n大家好，开始开会。");
      expect(txt).toContain("张三  00:00:03\n先看上周的进展。");
      for (const e of entries.values()) expect(e.crc).toBe(crc32(e.data));
    });

    it("gives the transcripts alone as SubRip, and a note naming the records never transcribed", async () => {
      const entries = await zipOf(`fileIds=${meeting},${draft}&include=transcript&format=srt`, "en");
      expect([...entries.keys()]).toEqual(["会议.srt", "not-transcribed.txt"]);
      expect(entries.get("会议.srt")!.data.toString("utf8")).toBe(
        "1\n00:00:00,000 --> 00:00:02,500\nSpeaker 1: 大家好，开始开会。\n\n2\n00:00:03,000 --> 00:00:06,000\n张三: 先看上周的进展。\n",
      );
      expect(entries.get("not-transcribed.txt")!.data.toString("utf8")).toContain("- 草稿.wav");
      // in Chinese the note says so in Chinese; with the audio the untranscribed record's file is there
      const zh = await zipOf(`fileIds=${draft},${meeting}&include=both&format=docx`);
      expect([...zh.keys()]).toEqual(["草稿.wav", "会议.wav", "会议.docx", "未转写的记录.txt"]);
      const docx = zh.get("会议.docx")!.data;
      expect(docx.subarray(0, 2).toString()).toBe("PK");
      expect(zh.get("未转写的记录.txt")!.data.toString("utf8")).toContain("草稿.wav");
    });

    it("checks the owner of every id: another user's record refuses the whole zip (30001); bad options are 10002", async () => {
      const theirs = (await upload(bob, fx.wav, "bob.wav")).body.data.fileId;
      await t.db.transcript.create({ data: { fileId: theirs, asrResult: SEGMENTS, language: "zh" } });
      const mixed = await t
        .http()
        .get(api(`/api/v1/audio/download/batch?fileIds=${meeting},${theirs}&include=transcript`))
        .set("Cookie", alice.cookie);
      expect(mixed.body).toMatchObject({ status_code: 30001, data: null });
      for (const [query, field] of [
        ["include=text", "include"],
        ["include=both&format=pdf", "format"],
      ]) {
        const res = await t
          .http()
          .get(api(`/api/v1/audio/download/batch?fileIds=${meeting}&${query}`))
          .set("Cookie", alice.cookie);
        expect(res.body.status_code).toBe(10002);
        expect(res.body.status_msg).toContain(field);
      }
    });
  });

  it("refuses the whole batch if any id is another user's or in the bin (30001), bad lists (10002)", async () => {
    const theirs = await upload(bob, fx.wav, "bob.wav");
    const mixed = await t
      .http()
      .get(api(`/api/v1/audio/download/batch?fileIds=${ids[0]},${theirs.body.data.fileId}`))
      .set("Cookie", alice.cookie);
    expect(mixed.body).toMatchObject({ status_code: 30001, data: null });

    const binned = await upload(alice, fx.wav, "binned.wav");
    await t.db.audioRecord.update({ where: { fileId: binned.body.data.fileId }, data: { deletedAt: new Date() } });
    const withBinned = await t
      .http()
      .get(api(`/api/v1/audio/download/batch?fileIds=${binned.body.data.fileId}`))
      .set("Cookie", alice.cookie);
    expect(withBinned.body.status_code).toBe(30001);

    for (const bad of ["", "1,a", "-1", "1;DROP TABLE x"]) {
      const res = await t
        .http()
        .get(api("/api/v1/audio/download/batch"))
        .query({ fileIds: bad })
        .set("Cookie", alice.cookie);
      expect(res.body.status_code).toBe(10002);
    }
  });
});
