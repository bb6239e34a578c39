import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { StatusCode } from "@yuelu/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../helpers/app.ts";

/**
 * Issue 19: the disk full during an upload. DATA_DIR (where uploads are staged and, with the disk
 * store, kept) is a 4 MiB tmpfs mounted by the test; a 5.5 MiB recording cannot fit. The user gets
 * 20002 in their language, and nothing is left behind: no row, no staged part, no stored file.
 */
const run = promisify(execFile);
const api = (p: string) => `/voice_yuelu${p}`;

let mountPoint = "";
let media = "";
let mounted = false;
try {
  mountPoint = await mkdtemp(path.join(tmpdir(), "yuelu-full-disk-"));
  await run("mount", ["-t", "tmpfs", "-o", "size=4m,mode=700", "tmpfs", mountPoint]);
  mounted = true;
} catch (error) {
  console.warn(
    `\n⚠️  tests/api/disk-full.test.ts NOT RUN: a small tmpfs could not be mounted here (needs root): ${String(error)}\n`,
  );
}

let t: TestApp;
const dataDir = () => path.join(mountPoint, "data");

describe.runIf(mounted)("an upload when the disk is full", () => {
  beforeAll(async () => {
    media = await mkdtemp(path.join(tmpdir(), "yuelu-full-disk-media-"));
    // 60 s of 48 kHz 16-bit mono: 5.5 MiB, more than the disk holds; and a 2 s one that fits
    await run("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=300:duration=60:sample_rate=48000"],
      ...["-c:a", "pcm_s16le", path.join(media, "big.wav")],
    ]);
    await run("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=300:duration=2:sample_rate=16000"],
      ...["-c:a", "pcm_s16le", path.join(media, "small.wav")],
    ]);
    // (a folder inside the mount: the test app removes its DATA_DIR when it closes)
    t = await createTestApp({ DATA_DIR: dataDir() });
  });

  afterAll(async () => {
    await t?.close();
    await run("umount", [mountPoint]).catch(() => {});
    await rm(mountPoint, { recursive: true, force: true });
    if (media) await rm(media, { recursive: true, force: true });
  });

  it("answers 20002 in the user's language and leaves no row, no staged part and no file; a file that fits still goes in", async () => {
    const user = await signIn(t);
    const storage = async () =>
      (await t.http().get(api("/api/v1/user/storage_info?source=0")).set("Cookie", user.cookie)).body.data;
    const before = await storage();
    const refused = await t
      .http()
      .post(api("/api/v1/audio/upload?lang=en"))
      .set("Cookie", user.cookie)
      .attach("file", path.join(media, "big.wav"), "meeting.wav");
    expect(refused.body).toMatchObject({
      status_code: StatusCode.FileSaveFailed,
      status_msg: "Saving the file failed.",
    });
    expect(await t.db.audioRecord.count({ where: { userId: user.userId } })).toBe(0);
    expect(await readdir(path.join(dataDir(), "tmp")).catch(() => [])).toEqual([]);
    expect(await readdir(path.join(dataDir(), "files")).catch(() => [])).toEqual([]);
    expect(await storage()).toEqual(before);

    const ok = await t
      .http()
      .post(api("/api/v1/audio/upload"))
      .set("Cookie", user.cookie)
      .attach("file", path.join(media, "small.wav"), "short.wav");
    expect(ok.body).toMatchObject({ status_code: 1, data: { timeLen: 2 } });
  });
});
