import { createGiftCodes } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GIFT_CODE_GUESSES } from "../../apps/api/src/modules/rewards/routes.ts";
import { createTestApp, type SignedIn, signIn, type TestApp, uniquePhone } from "../helpers/app.ts";

/**
 * Guess limits under parallel requests (issue 26): every guess takes its place in the count before
 * anything is looked up, so a burst from one user and address cannot slip more guesses under a limit
 * than it allows. Each test replays the attack as it was found.
 */
let t: TestApp;
let alice: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

const codes = (answers: { body: { status_code: number } }[]) => {
  const by = new Map<number, number>();
  for (const a of answers) by.set(a.body.status_code, (by.get(a.body.status_code) ?? 0) + 1);
  return Object.fromEntries(by);
};

describe("gift codes", () => {
  it("60 parallel unknown codes from one user and address: exactly 10 are looked up, 50 refused unread", async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t
          .http()
          .post("/voice_yuelu/api/v1/gift_pack/gift_code_exchange")
          .set("Cookie", alice.cookie)
          .send({ packCode: `ZZZZ${String(i).padStart(4, "0")}` }),
      ),
    );
    expect(codes(answers)).toEqual({ 60004: GIFT_CODE_GUESSES.perUser, 10003: 60 - GIFT_CODE_GUESSES.perUser });
  });

  it("a right code is not a guess: it leaves the user's count as it was", async () => {
    const bob = await signIn(t);
    const [good] = await createGiftCodes(t, {
      count: 1,
      rewardType: 0,
      rewardNumber: 5,
      maxRedemptions: 1,
      batch: "guess-test",
    });
    const exchange = (packCode: string) =>
      t.http().post("/voice_yuelu/api/v1/gift_pack/gift_code_exchange").set("Cookie", bob.cookie).send({ packCode });
    const wrong = await Promise.all(Array.from({ length: 9 }, (_, i) => exchange(`YYYY${String(i).padStart(4, "0")}`)));
    expect(codes(wrong)).toEqual({ 60004: 9 });
    expect((await exchange(good!)).body.status_code).toBe(1);
    // the tenth wrong guess still has its place; the eleventh has none
    expect((await exchange("YYYY9999")).body.status_code).toBe(60004);
    expect((await exchange("YYYY9998")).body.status_code).toBe(10003);
  });
});

describe("SMS codes and logins", () => {
  it("40 parallel wrong codes: the code is compared 5 times at most, the address refused after 10", async () => {
    const phone = uniquePhone();
    await t.http().post("/account/api/sms/send").send({ phone });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t
          .http()
          .post("/account/api/login")
          .send({ phone, code: String(100000 + i) }),
      ),
    );
    expect(codes(answers)).toEqual({ 10004: 10, 10003: 30 });
    const row = await t.db.smsCode.findFirstOrThrow({ where: { phone }, orderBy: { createdAt: "desc" } });
    expect(row.attempts).toBe(5);
    expect(row.consumedAt).toBeNull();
  });

  it("40 parallel wrong passwords from one address: exactly 10 are checked", async () => {
    const phone = uniquePhone();
    await t.http().post("/account/api/sms/send").send({ phone });
    await t
      .http()
      .post("/account/api/login")
      .send({ phone, code: t.sms.lastCode(phone), password: "the-right-password" });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.http().post("/account/api/login").send({ phone, password: "a-wrong-password" }),
      ),
    );
    expect(codes(answers)).toEqual({ 10005: 10, 10003: 30 });
  });
});
