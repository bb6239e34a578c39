import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, offlineWarning } from "../../prisma/src/migrate.ts";
import { offlineReasons } from "../../prisma/src/online.ts";

describe("offlineReasons", () => {
  it.each([
    ['ALTER TABLE "orders" ALTER COLUMN "amount" SET DATA TYPE BIGINT;', /orders: column type changed/],
    ['ALTER TABLE "orders" ALTER COLUMN "amount" TYPE BIGINT USING "amount"::bigint;', /column type changed/],
    ['ALTER TABLE "orders" DROP COLUMN "amount";', /orders: column dropped/],
    ['ALTER TABLE "users" ADD COLUMN "tier" TEXT NOT NULL;', /users: NOT NULL column without a default/],
    ['ALTER TABLE "users" ALTER COLUMN "tier" SET NOT NULL;', /users: NOT NULL added/],
    ['ALTER TABLE "users" RENAME COLUMN "nick" TO "nickname";', /users: rename/],
    ['DROP TABLE "old_things";', /old_things: the table is dropped/],
    ["-- yuelu: offline rebuilds the search index\nSELECT 1;", /marked offline: rebuilds the search index/],
  ])("flags %s", (sql, reason) => {
    const reasons = offlineReasons(sql);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(reason);
  });

  it.each([
    'ALTER TABLE "users" ADD COLUMN "tier" TEXT NOT NULL DEFAULT \'free\';',
    'ALTER TABLE "users" ADD COLUMN "note" TEXT;',
    'ALTER TABLE "users" ALTER COLUMN "tier" DROP NOT NULL;',
    'ALTER TABLE "users" DROP CONSTRAINT "users_fkey";',
    'CREATE INDEX "users_tier_idx" ON "users"("tier");',
    // a table made in the same migration has no rows and no readers yet
    'CREATE TABLE "things" ("id" SERIAL NOT NULL);\nALTER TABLE "things" ADD COLUMN "name" TEXT NOT NULL;',
    // the author checked it
    '-- yuelu: online (the table is empty in every install)\nALTER TABLE "orders" DROP COLUMN "amount";',
    '-- DROP TABLE "x"; in a comment only\nSELECT 1;',
  ])("lets %s run online", (sql) => {
    expect(offlineReasons(sql)).toEqual([]);
  });

  it("lists each action of a multi-action ALTER TABLE", () => {
    const reasons = offlineReasons(
      'ALTER TABLE "pay_goods" DROP COLUMN "price",\nADD COLUMN "priceFen" INTEGER NOT NULL,\nADD COLUMN "x" TEXT;',
    );
    expect(reasons).toHaveLength(2);
  });

  it("finds the committed migrations that dropped columns (the commerce one rewrote prices)", () => {
    const sql = readFileSync(path.join(MIGRATIONS_DIR, "20261122232018_commerce", "migration.sql"), "utf8");
    expect(offlineReasons(sql).join("\n")).toMatch(/orders: column dropped/);
    // every committed migration parses
    for (const name of readdirSync(MIGRATIONS_DIR).filter((n) => /^\d+_/.test(n))) {
      expect(() =>
        offlineReasons(readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8")),
      ).not.toThrow();
    }
  });
});

describe("offlineWarning", () => {
  it("names the migrations, their reasons and what to do; nothing when all run online", () => {
    expect(offlineWarning([{ name: "a", reasons: [] }])).toBeUndefined();
    const text = offlineWarning([
      { name: "20270101_a", reasons: [] },
      { name: "20270102_b", reasons: ["orders: column dropped"] },
    ]);
    expect(text).toMatch(/^1 pending migration\(s\) cannot run/);
    expect(text).toContain("20270102_b");
    expect(text).not.toContain("20270101_a");
    expect(text).toContain("Stop every API and worker node first");
  });
});
