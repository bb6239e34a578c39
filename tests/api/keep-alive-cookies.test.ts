import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, devSession, type SignedIn, type TestApp } from "../helpers/app.ts";

/**
 * A connection's last Cookie header is parsed once and reused while it stays the same
 * (apps/api/src/plugins/cookies.ts): on one kept-alive connection, every request must still be
 * answered as its own header says — signing in, out, or as someone else between two calls.
 */

let t: TestApp;
let port: number;
let alice: SignedIn;
let bob: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
  alice = await devSession(t, "13720000001");
  bob = await devSession(t, "13720000002");
});
afterAll(async () => {
  await t?.close();
});

/** GET user/info on the agent's one connection: the user id it answers for (null when not signed in), and the socket. */
function userInfo(agent: Agent, cookie?: string) {
  return new Promise<{ userId: number | null; socket: unknown }>((resolve, reject) => {
    const req = request(
      { port, host: "127.0.0.1", path: "/voice_yuelu/api/v1/user/info", agent, headers: cookie ? { cookie } : {} },
      (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => {
          const answer = JSON.parse(body) as { status_code: number; data: { userId: number } | null };
          resolve({ userId: answer.status_code === 1 ? answer.data!.userId : null, socket: req.socket });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("cookies on a kept-alive connection", () => {
  it("answer each request as its own Cookie header says", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const calls = [alice.cookie, alice.cookie, undefined, bob.cookie, `${alice.cookie}; lang=en`, alice.cookie];
      const answers = [];
      for (const cookie of calls) answers.push(await userInfo(agent, cookie));
      expect(answers.map((a) => a.userId)).toEqual([
        alice.userId,
        alice.userId,
        null,
        bob.userId,
        alice.userId,
        alice.userId,
      ]);
      // all on one connection
      expect(new Set(answers.map((a) => a.socket)).size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
