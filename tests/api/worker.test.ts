import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { startWorkers } from "../../apps/worker/src/workers.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;

describe("housekeeping job", () => {
  it("removes expired sessions and old SMS codes, purges accounts whose grace period is over", async () => {
    const live = await signIn(t);
    const due = await signIn(t);
    const pending = await signIn(t);
    await t.db.session.updateMany({ where: { userId: live.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await t.db.user.update({ where: { id: due.userId }, data: { deleteRequestedAt: new Date(Date.now() - 8 * DAY) } });
    await t.db.user.update({
      where: { id: pending.userId },
      data: { deleteRequestedAt: new Date(Date.now() - 1 * DAY) },
    });
    await t.db.smsCode.updateMany({ data: { createdAt: new Date(Date.now() - 2 * DAY) } });

    const result = await runHousekeeping(t.domain);
    expect(result.purgedAccounts).toBe(1);
    expect(result.expiredSessions).toBeGreaterThanOrEqual(1);
    expect(result.oldSmsCodes).toBeGreaterThanOrEqual(3);

    expect(await t.db.session.count({ where: { userId: live.userId } })).toBe(0);
    const purged = await t.db.user.findUniqueOrThrow({ where: { id: due.userId } });
    expect(purged).toMatchObject({ phone: null, passwordHash: null });
    expect(purged.deletedAt).not.toBeNull();
    expect(await t.db.session.count({ where: { userId: due.userId } })).toBe(0);
    const kept = await t.db.user.findUniqueOrThrow({ where: { id: pending.userId } });
    expect(kept.phone).toBe(pending.phone);
    expect(kept.deletedAt).toBeNull();
    // A second run finds nothing more to do.
    expect((await runHousekeeping(t.domain)).purgedAccounts).toBe(0);
  });

  it(`runs through the ${process.env.REDIS_URL ? "Redis" : "PostgreSQL"} queue backend and its worker`, async () => {
    const logs: unknown[] = [];
    const workers = await startWorkers({
      db: t.db,
      config: t.config,
      queues: t.queues,
      files: t.files,
      events: t.events,
      log: { info: (o) => logs.push(o), warn: (o) => logs.push(o), error: (o) => logs.push(o) },
    });
    const job = await t.queues.queue(QueueName.Housekeeping).add("housekeeping", {});
    const start = Date.now();
    while (!(await job.isCompleted()) && Date.now() - start < 15_000) await new Promise((r) => setTimeout(r, 100));
    expect(await job.isCompleted()).toBe(true);
    expect(logs.some((l) => typeof l === "object" && l !== null && "purgedAccounts" in l)).toBe(true);
    await workers.stop();
  });
});
