import { StatusCode } from "@yuelu/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, devSession, type TestApp } from "../helpers/app.ts";
import { seedUser } from "../helpers/factories.ts";

/** Avatar upload from the personal centre (POST api/v1/user/upload_photo; docs/engagement.md). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/voice_yuelu${path}`;
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

async function signedIn() {
  const user = await seedUser(t.db);
  return devSession(t, user.phone!);
}

describe("avatar upload", () => {
  it("stores the image, points userPhoto at it, serves it, and removes the previous one", async () => {
    const who = await signedIn();
    const first = await t
      .http()
      .post(api("/api/v1/user/upload_photo"))
      .set("Cookie", who.cookie)
      .attach("file", PNG, { filename: "me.png", contentType: "image/png" });
    expect(first.body.status_code).toBe(StatusCode.Success);
    const photo = first.body.data.userPhoto as string;
    expect(photo).toMatch(/^\/voice_yuelu\/api\/v1\/user\/photo\/[0-9a-f-]{36}\.png$/);

    const served = await t.http().get(photo).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);

    const second = await t
      .http()
      .post(api("/api/v1/user/upload_photo"))
      .set("Cookie", who.cookie)
      .attach("file", PNG, { filename: "again.png", contentType: "image/png" });
    expect(second.body.data.userPhoto).not.toBe(photo);
    expect((await t.http().get(photo)).status).toBe(404);
    const info = await t.http().get(api("/api/v1/user/info")).set("Cookie", who.cookie);
    expect(info.body.data.userPhoto).toBe(second.body.data.userPhoto);
  });

  it("refuses what is not an image (whatever its name), a too-large one and a missing file, changing nothing", async () => {
    const who = await signedIn();
    const before = (await t.db.user.findUniqueOrThrow({ where: { id: who.userId } })).userPhoto;
    const fake = await t
      .http()
      .post(api("/api/v1/user/upload_photo?lang=en"))
      .set("Cookie", who.cookie)
      .attach("file", Buffer.from("<script>alert(1)</script>"), { filename: "x.png", contentType: "image/png" });
    expect(fake.body.status_code).toBe(StatusCode.InvalidParams);
    expect(fake.body.status_msg).toMatch(/file/);

    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await t
      .http()
      .post(api("/api/v1/user/upload_photo"))
      .set("Cookie", who.cookie)
      .attach("file", big, { filename: "big.png", contentType: "image/png" });
    expect(tooBig.body.status_code).toBe(StatusCode.InvalidParams);

    const none = await t
      .http()
      .post(api("/api/v1/user/upload_photo"))
      .set("Cookie", who.cookie)
      .field("nothing", "here");
    expect(none.body.status_code).toBe(StatusCode.InvalidParams);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: who.userId } })).userPhoto).toBe(before);
  });

  it("needs a signed-in user; unknown or malformed photo names are 404", async () => {
    const anonymous = await t
      .http()
      .post(api("/api/v1/user/upload_photo"))
      .attach("file", PNG, { filename: "me.png", contentType: "image/png" });
    expect(anonymous.body.status_code).toBe(StatusCode.NotLoggedIn);
    expect((await t.http().get(api("/api/v1/user/photo/../../etc/passwd"))).status).toBe(404);
    expect(
      (await t.http().get(api(`/api/v1/user/photo/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}.png`))).status,
    ).toBe(404);
  });
});

describe("nobody can delete another user's avatar (issue 26)", () => {
  const upload = (cookie: string) =>
    t
      .http()
      .post(api("/api/v1/user/upload_photo"))
      .set("Cookie", cookie)
      .attach("file", PNG, { filename: "me.png", contentType: "image/png" });
  const setPhoto = (cookie: string, userPhoto: string) =>
    t.http().post(api("/api/v1/user/update_info")).set("Cookie", cookie).send({ userPhoto });

  it("refuses someone else's uploaded photo (or any other URL); built-in avatars, none and one's own pass", async () => {
    const bob = await signedIn();
    const mallory = await signedIn();
    const bobPhoto = (await upload(bob.cookie)).body.data.userPhoto as string;
    for (const foreign of [bobPhoto, "/voice_yuelu/api/v1/user/photo/../../x", "https://evil.example/x.png"]) {
      const refused = await setPhoto(mallory.cookie, foreign);
      expect(refused.body.status_code, foreign).toBe(10002);
      expect(refused.body.status_msg).toContain("userPhoto");
    }
    expect((await setPhoto(mallory.cookie, "/avatars/a3.svg")).body.status_code).toBe(1);
    expect((await setPhoto(mallory.cookie, "")).body.status_code).toBe(1);
    // bob saving his profile with his own current photo is fine
    expect((await setPhoto(bob.cookie, bobPhoto)).body.status_code).toBe(1);
    // the replay: mallory uploads an avatar of her own; bob's file is untouched
    await upload(mallory.cookie);
    await upload(mallory.cookie);
    expect((await t.http().get(bobPhoto)).status).toBe(200);
  });

  it("switching from an uploaded photo to a built-in one leaves no orphan file", async () => {
    const who = await signedIn();
    const photo = (await upload(who.cookie)).body.data.userPhoto as string;
    const name = photo.split("/").pop()!;
    expect(await t.files.size(`avatars/${name}`)).not.toBeNull();
    expect((await setPhoto(who.cookie, "/avatars/a1.svg")).body.status_code).toBe(1);
    expect(await t.files.size(`avatars/${name}`)).toBeNull();
    expect((await t.http().get(photo)).status).toBe(404);
  });

  it("a profile that already points at someone else's photo (set before this check) never deletes it", async () => {
    const owner = await signedIn();
    const photo = (await upload(owner.cookie)).body.data.userPhoto as string;
    const squatter = await signedIn();
    await t.db.user.update({ where: { id: squatter.userId }, data: { userPhoto: photo } });
    await upload(squatter.cookie); // replaces the squatted photo: the owner still shows it, so it stays
    expect((await t.http().get(photo)).status).toBe(200);
  });
});
