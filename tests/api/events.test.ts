import type { DomainEvent } from "@yuelu/runtime";
import { EventBus, postgresTransport } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * The event bus without Redis: processes sharing only a PostgreSQL database hear each other's
 * events through LISTEN/NOTIFY, each exactly once, and never their own twice.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function until(check: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!check() && Date.now() - start < timeoutMs) await new Promise((r) => setTimeout(r, 20));
}

describe("PostgreSQL event transport", () => {
  it("carries events between two buses on one database", async () => {
    const api = new EventBus(postgresTransport(t.databaseUrl));
    const worker = new EventBus(postgresTransport(t.databaseUrl));
    const heardByApi: DomainEvent[] = [];
    const heardByWorker: DomainEvent[] = [];
    api.subscribe((e) => heardByApi.push(e));
    worker.subscribe((e) => heardByWorker.push(e));
    await api.listen();
    await worker.listen();
    try {
      await worker.publish({ type: "user.changed", userId: 42 });
      await api.publish({ type: "session.ended", userId: 7, sessionId: "s" });
      await until(() => heardByApi.length >= 2 && heardByWorker.length >= 2);
      // each bus hears both events (its own in-process, the other's through PostgreSQL), in either order
      const both = [
        { type: "user.changed", userId: 42 },
        { type: "session.ended", userId: 7, sessionId: "s" },
      ];
      expect(heardByApi).toHaveLength(2);
      expect(heardByApi).toEqual(expect.arrayContaining(both));
      expect(heardByWorker).toHaveLength(2);
      expect(heardByWorker).toEqual(expect.arrayContaining(both));
      await new Promise((r) => setTimeout(r, 200));
      expect(heardByApi).toHaveLength(2); // its own event once, not again from the database
    } finally {
      await api.close();
      await worker.close();
    }
  });
});
