import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, devSession, type SignedIn, type TestApp } from "../helpers/app.ts";

/**
 * RATE_LIMIT_PER_MINUTE counts per user for signed-in requests and per address for anonymous ones
 * (apps/api/src/plugins/rate-limit.ts): a school or an office behind one address is as many people as
 * it has. Every request here comes from the same address (127.0.0.1).
 */

const api = (path: string) => `/voice_yuelu${path}`;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: "600" });
});
afterAll(async () => {
  await t?.close();
});

/** Runs `jobs` with at most `lanes` at once. */
async function inLanes<T>(jobs: (() => Promise<T>)[], lanes: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

describe("the per-minute flood guard", () => {
  it("lets 100 signed-in users behind one address browse (1 000 requests) without a single 429", async () => {
    const users: SignedIn[] = [];
    for (let i = 0; i < 100; i++) users.push(await devSession(t, `1371000${String(i).padStart(4, "0")}`));
    const pages = ["/api/v1/user/check_login", "/api/v1/user/info", "/api/v3/audio/all_list?page=1&pageSize=20"];
    const jobs = users.flatMap((u) =>
      Array.from(
        { length: 10 },
        (_, i) => () =>
          t
            .http()
            .get(api(pages[i % pages.length]!))
            .set("Cookie", u.cookie)
            .then((r) => r.status),
      ),
    );
    const statuses = await inLanes(jobs, 20);
    expect(statuses).toHaveLength(1000);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  }, 60_000);

  it("stops one user hammering (429, 10003, Retry-After) while the others behind the same address go on", async () => {
    const hammer = await devSession(t, "13710009998");
    const neighbour = await devSession(t, "13710009999");
    const jobs = Array.from(
      { length: 620 },
      () => () => t.http().get(api("/api/v1/user/check_login")).set("Cookie", hammer.cookie),
    );
    const answers = await inLanes(jobs, 20);
    const ok = answers.filter((r) => r.status === 200).length;
    const limited = answers.filter((r) => r.status === 429);
    expect(ok).toBe(600);
    expect(limited).toHaveLength(20);
    expect(limited[0]!.body.status_code).toBe(10003);
    expect(Number(limited[0]!.headers["retry-after"])).toBeGreaterThan(0);
    const other = await t.http().get(api("/api/v1/user/check_login")).set("Cookie", neighbour.cookie);
    expect(other.status).toBe(200);
    expect(other.body.data.login).toBe(true);
  }, 60_000);

  it("counts anonymous requests per address", async () => {
    const small = await createTestApp({ RATE_LIMIT_PER_MINUTE: "5" });
    try {
      const user = await devSession(small, "13710009997"); // one anonymous request (sign-in) of the five
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) codes.push((await small.http().get(api("/api/v1/user/check_login"))).status);
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
      // a signed-in user behind that same address has a budget of their own
      expect((await small.http().get(api("/api/v1/user/check_login")).set("Cookie", user.cookie)).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it("classes a percent-encoded path by the route it reaches: counted, and never cached (issue 40)", async () => {
    const small = await createTestApp({ RATE_LIMIT_PER_MINUTE: "30" });
    try {
      const user = await devSession(small, "13710009995");
      // `/%76oice_yuelu/…` is routed to `/voice_yuelu/…`: the same budget as the plain path, not a free one
      const encoded = "/%76oice_yuelu/api/v1/user/info";
      const first = await small.http().get(encoded).set("Cookie", user.cookie);
      expect(first.status).toBe(200);
      expect(first.body.status_code).toBe(1);
      expect(first.headers["cache-control"]).toBe("no-store");
      const codes: number[] = [];
      for (let i = 0; i < 40; i++) {
        const path = i % 2 ? encoded : api("/api/v1/user/info");
        codes.push((await small.http().get(path).set("Cookie", user.cookie)).status);
      }
      expect(codes.filter((c) => c === 200)).toHaveLength(29);
      expect(codes.slice(29).every((c) => c === 429)).toBe(true);
      // a public share page, anonymous (per address): encoded it is counted too
      const anonymous: number[] = [];
      for (let i = 0; i < 32; i++) anonymous.push((await small.http().get("/%73/not-a-token")).status);
      // (the address already spent a little of its 30 signing in)
      expect(anonymous.filter((c) => c !== 429).length).toBeLessThan(30);
      expect(anonymous.slice(-2)).toEqual([429, 429]);
      // /v1's answers are personal: never cached, however the path is spelled
      for (const path of ["/%761/models", "/v%31/models"]) {
        expect((await small.http().get(path)).headers["cache-control"], path).toBe("no-store");
      }
    } finally {
      await small.close();
    }
  });

  it.runIf(Boolean(process.env.REDIS_URL))("shares one count between API replicas through Redis", async () => {
    const first = await createTestApp({ RATE_LIMIT_PER_MINUTE: "10" });
    const second = await createTestApp({ RATE_LIMIT_PER_MINUTE: "10" }, { shareDatabaseWith: first });
    try {
      const user = await devSession(first, "13710009996");
      const check = async (replica: TestApp, times: number) => {
        const codes: number[] = [];
        for (let i = 0; i < times; i++) {
          codes.push((await replica.http().get(api("/api/v1/user/check_login")).set("Cookie", user.cookie)).status);
        }
        // each replica adds its counts to Redis every 200 ms and reads back the sum
        await new Promise((r) => setTimeout(r, 500));
        return codes;
      };
      expect(await check(first, 6)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await check(second, 1)).toEqual([200]); // the second replica learns of the first one's 6
      expect(await check(second, 4)).toEqual([200, 200, 200, 429]);
      // the first replica's knowledge is one flush old: one more request passes there, then it refuses too
      expect([...(await check(first, 1)), ...(await check(first, 1))]).toEqual([200, 429]);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

if (!process.env.REDIS_URL) {
  console.warn("\n*** REDIS_URL is not set: the rate limit shared between replicas through Redis is NOT tested. ***\n");
}
