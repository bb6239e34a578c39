import { randomBytes } from "node:crypto";
import { FileStatus } from "@yuelu/contracts";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLoggerOptions } from "../../apps/api/src/lib/request-log.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { seedRecord } from "../helpers/factories.ts";

/**
 * The request log holds no secret that travels in a URL (issue 40): share tokens, share passwords,
 * tus upload ids, sign-in codes — while every request is still logged, by its route. The app logs
 * through the very options apps/api/src/main.ts and launcher/main.ts use.
 */

let t: TestApp;
let alice: SignedIn;
const lines: string[] = [];

beforeAll(async () => {
  const logger = pino(apiLoggerOptions("info"), { write: (line: string) => lines.push(line) });
  t = await createTestApp({}, { logger });
  alice = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

/** The URLs of the "incoming request" lines logged since `from`. */
function loggedUrls(from: number): string[] {
  return lines
    .slice(from)
    .map((line) => JSON.parse(line) as { req?: { url?: string } })
    .flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));
}

async function transcribedRecord() {
  const record = await seedRecord(t.db, { userId: alice.userId, fileStatus: FileStatus.Complete });
  await t.db.transcript.create({
    data: {
      fileId: record.fileId,
      language: "en",
      asrResult: [{ spkName: "A", startTime: 0, endTime: 1000, text: "hi" }],
    },
  });
  return record;
}

describe("the request log", () => {
  it("never holds a share link's token or password, yet logs each call by its route", async () => {
    const record = await transcribedRecord();
    const password = `open-${randomBytes(6).toString("hex")}`;
    const from = lines.length;
    const made = await t
      .http()
      .get(`/voice_yuelu/text/generate_url?fileId=${record.fileId}&password=${password}&withAudio=1`)
      .set("Cookie", alice.cookie);
    expect(made.body.status_code, made.body.status_msg).toBe(1);
    const token = new URL(made.body.data.url).pathname.slice("/s/".length);

    await t.http().get(`/s/${token}`);
    await t.http().get(`/s/${token}/audio`);
    await t.http().post(`/s/${token}`).type("form").send({ password });
    await t.http().get(`/%73/${token}?pwd=${password}&Pass%77ord=${password}&lang=en`); // escaped, as the router reads it
    await t.http().get(`/s/${token}/not-a-page`);

    const logged = loggedUrls(from);
    const text = lines.slice(from).join("");
    expect(text).not.toContain(token);
    expect(text).not.toContain(password);
    expect(logged).toEqual([
      `/voice_yuelu/text/generate_url?fileId=${record.fileId}&password=[redacted]&withAudio=1`,
      "/s/:token",
      "/s/:token/audio",
      "/s/:token",
      "/s/:token?pwd=[redacted]&Pass%77ord=[redacted]&lang=en",
      "/s/*",
    ]);
  });

  it("never holds a tus upload's id, whether a route answers it or not", async () => {
    const id = randomBytes(16).toString("hex");
    const from = lines.length;
    await t
      .http()
      .head(`/voice_yuelu/api/v1/audio/uploads/${id}`)
      .set("Cookie", alice.cookie)
      .set("Tus-Resumable", "1.0.0");
    await t.http().get(`/voice_yuelu/api/v1/audio/uploads/${id}`).set("Cookie", alice.cookie); // no GET route: 404
    expect(lines.slice(from).join("")).not.toContain(id);
    expect(loggedUrls(from)).toEqual([
      "/voice_yuelu/api/v1/audio/uploads/:id",
      "/voice_yuelu/api/v1/audio/uploads/[redacted]",
    ]);
  });

  it("redacts codes and keys in any query, and leaves other URLs as they were", async () => {
    const from = lines.length;
    await t.http().get("/voice_yuelu/api/v3/user/virtual_login?tempCode=123456&lang=en");
    await t.http().get("/voice_yuelu/api/v1/user/info?userId=7&source=0").set("Cookie", alice.cookie);
    expect(loggedUrls(from)).toEqual([
      "/voice_yuelu/api/v3/user/virtual_login?tempCode=[redacted]&lang=en",
      "/voice_yuelu/api/v1/user/info?userId=7&source=0",
    ]);
  });
});
