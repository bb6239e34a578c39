import { randomBytes } from "node:crypto";
import { applyMigrations, createDb, seedCatalogue } from "@yuelu/db";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createThrowawayDatabase, dropThrowawayDatabase } from "../helpers/database.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function catalogueSnapshot() {
  const { db } = t;
  return JSON.stringify(
    await Promise.all([
      db.payGoods.findMany({ orderBy: { goodsId: "asc" } }),
      db.shopGoods.findMany({ orderBy: { goodsId: "asc" } }),
      db.signReward.findMany({ orderBy: { day: "asc" } }),
      db.challengeTask.findMany({ orderBy: { challengeId: "asc" } }),
      db.infoCollectOption.findMany({ orderBy: { id: "asc" } }),
      db.feedbackCategory.findMany({ orderBy: { id: "asc" } }),
      db.helpDocument.findMany({ orderBy: { id: "asc" } }),
      db.banner.findMany({ orderBy: { id: "asc" } }),
      db.notification.findMany({ where: { userId: null }, orderBy: { notifyId: "asc" } }),
      db.appSetting.findMany({ orderBy: { key: "asc" } }),
    ]),
  );
}

describe("migrations", () => {
  it("are recorded like prisma migrate deploy does, and a second run applies nothing", async () => {
    const rows = await t.db.$queryRaw<{ migration_name: string; checksum: string }[]>`
      SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(await applyMigrations(t.databaseUrl)).toEqual([]);
  });

  it("enforce the ledger invariants the schema language cannot", async () => {
    const user = await t.db.user.create({ data: { phone: `136${String(Date.now()).slice(-8)}`, nickName: "x" } });
    await expect(t.db.user.update({ where: { id: user.id }, data: { beanBalance: -1 } })).rejects.toThrow();
    await expect(
      t.db.timeCard.create({
        data: { userId: user.id, seconds: 10, remaining: 11, expiresAt: new Date(), source: "gift", refId: "x" },
      }),
    ).rejects.toThrow();
  });
});

describe("seed", () => {
  it("has the catalogue a fresh install needs, incl. membership plans 8 and 9", async () => {
    const plans = await t.db.payGoods.findMany({ where: { goodsType: 1 }, orderBy: { goodsId: "asc" } });
    expect(plans.map((p) => p.goodsId)).toEqual([7, 8, 9]);
    // integer fen, never floats: ¥336 and ¥84; the annual plan's corner saves ¥78 against 12 monthly plans
    expect(plans.find((p) => p.goodsId === 9)).toMatchObject({
      priceFen: 33600,
      originalPriceFen: 41400,
      showSaved: true,
    });
    expect(plans.find((p) => p.goodsId === 8)).toMatchObject({ priceFen: 8400, showSaved: false });
    expect(12 * plans.find((p) => p.goodsId === 7)!.priceFen - 33600).toBe(7800);
    expect(await t.db.payGoods.count({ where: { goodsType: 0 } })).toBeGreaterThan(0);
    expect(await t.db.shopGoods.count()).toBeGreaterThan(0);
    expect(await t.db.signReward.count()).toBe(31);
    expect(await t.db.challengeTask.count({ where: { challengeType: 0 } })).toBeGreaterThan(0);
    expect(await t.db.challengeTask.count({ where: { challengeType: 1 } })).toBeGreaterThan(0);
    expect(await t.db.infoCollectOption.count({ where: { kind: "identity" } })).toBeGreaterThan(0);
    expect(await t.db.infoCollectOption.count({ where: { kind: "channel" } })).toBeGreaterThan(0);
    expect(await t.db.feedbackCategory.count({ where: { level: 1 } })).toBeGreaterThan(0);
    expect(await t.db.helpDocument.count()).toBeGreaterThan(0);
    expect(await t.db.banner.count({ where: { id: 1 } })).toBe(1);
    // no broadcast: each account's welcome is its own, dated at its sign-up (issue 43)
    expect(await t.db.notification.count({ where: { userId: null } })).toBe(0);
  });

  it("is idempotent: re-running changes nothing and keeps an operator's edits", async () => {
    await t.db.payGoods.update({ where: { goodsId: 1 }, data: { goodsName: "运营改过的名字" } });
    const before = await catalogueSnapshot();
    await seedCatalogue(t.db);
    await seedCatalogue(t.db);
    expect(await catalogueSnapshot()).toBe(before);
    expect((await t.db.payGoods.findUniqueOrThrow({ where: { goodsId: 1 } })).goodsName).toBe("运营改过的名字");
    // Put it back: without DATABASE_URL the test files share one database.
    await t.db.payGoods.update({ where: { goodsId: 1 }, data: { goodsName: "1小时时长卡" } });
  });

  it.runIf(inject("databaseMode") === "external")(
    "several nodes starting at once on a fresh database: every one migrates and seeds it, the catalogue once",
    { timeout: 120_000 },
    async () => {
      const name = `yuelu_seed_race_${randomBytes(4).toString("hex")}`;
      const url = await createThrowawayDatabase(inject("serverUrl"), name);
      const nodes = Array.from({ length: 6 }, () => createDb(url, { poolSize: 2 }));
      try {
        // as openDatabase does on each node: migrations (advisory lock), then the seed (its own lock)
        await Promise.all(
          nodes.map(async (db) => {
            await applyMigrations(url);
            await seedCatalogue(db);
          }),
        );
        const [db] = nodes;
        expect(await db!.payGoods.count()).toBe(await t.db.payGoods.count());
        expect(await db!.voiceLibraryItem.count()).toBe(await t.db.voiceLibraryItem.count());
      } finally {
        await Promise.all(nodes.map((db) => db.$disconnect()));
        await dropThrowawayDatabase(inject("serverUrl"), name);
      }
    },
  );

  it("moves serial sequences past the seeded ids", async () => {
    const banner = await t.db.banner.create({ data: { image: "/b.png", link: "/", enabled: false } });
    expect(banner.id).toBeGreaterThan(1);
    await t.db.banner.delete({ where: { id: banner.id } });
  });
});
