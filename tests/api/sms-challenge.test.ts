import { createHash } from "node:crypto";
import vm from "node:vm";
import { createChallenge } from "altcha-lib/v1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxNumberFor, SMS_FREE_PER_ADDRESS } from "../../apps/api/src/modules/account/challenge.ts";
import { POW_SOLVER_JS } from "../../apps/api/src/modules/account/pow-solver.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Past SMS_FREE_PER_ADDRESS codes an hour from one address, each code needs a solved proof-of-work
 * challenge instead of being refused: the 31st person in a classroom still signs in, an SMS-pumping
 * script pays for every message. The solver is the login page's own script text, run here.
 */

interface Solver {
  sha256Hex(text: string): string;
  solve(challenge: unknown, done: (payload: string | null) => void): void;
}

function loadSolver(): Solver {
  const context = vm.createContext({ TextEncoder, btoa, setTimeout, Date, Math, Uint8Array, Int32Array });
  vm.runInContext(`${POW_SOLVER_JS}; this.POW = POW;`, context);
  return context.POW as Solver;
}

const solver = loadSolver();
const solve = (challenge: unknown) =>
  new Promise<string | null>((resolve) => solver.solve(challenge, (payload) => resolve(payload)));

let t: TestApp;
let phoneNo = 0;
const nextPhone = () => `1372${String(process.pid % 1000).padStart(3, "0")}${String(++phoneNo).padStart(4, "0")}`;
const send = (body: Record<string, unknown>) => t.http().post("/account/api/sms/send").send(body);
const challenge = async () => (await t.http().get("/account/api/sms/challenge")).body;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("the login page's SHA-256", () => {
  it("agrees with node:crypto on short, block-edge and long inputs", () => {
    for (const text of [
      "",
      "abc",
      "a".repeat(55),
      "a".repeat(56),
      "a".repeat(64),
      "盐?expires=1&12345",
      "x".repeat(300),
    ]) {
      expect(solver.sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
    }
  });

  it("solves an altcha-lib challenge", async () => {
    const ch = await createChallenge({ hmacKey: "k", maxnumber: 5000, number: 4321 });
    const payload = await solve(ch);
    expect(JSON.parse(Buffer.from(payload!, "base64").toString()).number).toBe(4321);
  });
});

describe("SMS codes from one busy address", () => {
  it("sends the first codes freely, then asks for a challenge (10008) instead of refusing", async () => {
    for (let i = 0; i < SMS_FREE_PER_ADDRESS; i++)
      expect((await send({ phone: nextPhone() })).body.status_code).toBe(1);
    const phone = nextPhone();
    const asked = await send({ phone });
    expect(asked.body.status_code).toBe(10008);
    expect(asked.body.status_msg).toBe("请先完成安全验证后再获取验证码");
    expect(t.sms.sent.some((s) => s.phone === phone)).toBe(false);

    const ch = await challenge();
    expect(ch.status_code).toBe(1);
    expect(ch.data.maxnumber).toBeGreaterThan(0);
    const payload = await solve(ch.data);
    const sent = await send({ phone, altcha: payload });
    expect(sent.body.status_code).toBe(1);
    expect(t.sms.lastCode(phone)).toMatch(/^\d{6}$/);

    // a solution is spent once: replaying it (for another phone) is refused
    expect((await send({ phone: nextPhone(), altcha: payload })).body.status_code).toBe(10008);
    // a forged or malformed one too
    expect((await send({ phone: nextPhone(), altcha: "bm9wZQ==" })).body.status_code).toBe(10008);
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64").toString()), number: 1 }),
    );
    expect((await send({ phone: nextPhone(), altcha: forged.toString("base64") })).body.status_code).toBe(10008);
  }, 60_000);

  it("lets ten more people behind that address sign in, each with a fresh challenge; per-phone limits still hold", async () => {
    for (let i = 0; i < 10; i++) {
      const phone = nextPhone();
      const payload = await solve((await challenge()).data);
      expect((await send({ phone, altcha: payload })).body.status_code).toBe(1);
      const login = await t
        .http()
        .post("/account/api/login")
        .send({ phone, code: t.sms.lastCode(phone) });
      expect(login.body.status_code).toBe(1);
    }
    // the same phone again within the minute: still 10003, challenge or not
    const phone = nextPhone();
    expect((await send({ phone, altcha: await solve((await challenge()).data) })).body.status_code).toBe(1);
    expect((await send({ phone, altcha: await solve((await challenge()).data) })).body.status_code).toBe(10003);
  }, 60_000);

  it("makes each challenge harder as the address keeps asking", () => {
    expect(maxNumberFor(SMS_FREE_PER_ADDRESS)).toBe(maxNumberFor(0));
    expect(maxNumberFor(SMS_FREE_PER_ADDRESS * 2)).toBe(2 * maxNumberFor(SMS_FREE_PER_ADDRESS));
    expect(maxNumberFor(SMS_FREE_PER_ADDRESS * 5)).toBe(16 * maxNumberFor(SMS_FREE_PER_ADDRESS));
    expect(maxNumberFor(1_000_000)).toBe(20_000_000);
  });
});
