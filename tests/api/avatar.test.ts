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
