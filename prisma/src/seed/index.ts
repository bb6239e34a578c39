import { createHash } from "node:crypto";
import type { Db } from "../client.ts";
import * as c from "./catalogue.ts";
import { libraryVoices } from "./voices.ts";

/**
 * Several nodes starting at once on a fresh database all seed it: one at a time (a transaction-level
 * advisory lock), each waiting its turn well within the transaction's time limit. Without the lock the
 * seeders queued on each other's rows and, on a busy machine, one ran past Prisma's 5 s default and its
 * node died at start (seen in the faults suite).
 */
const SEED_LOCK = "yuelu:seed";
const SEED_TRANSACTION = { maxWait: 60_000, timeout: 120_000 };

/**
 * Writes the catalogue a fresh install needs. Idempotent: rows that already exist (by id or by
 * their natural key) are left as they are, so re-running changes nothing and keeps operators' edits.
 */
export async function seedCatalogue(db: Db): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${SEED_LOCK}))`;
    await tx.payGoods.createMany({ data: [...c.membershipPlans, ...c.durationCards], skipDuplicates: true });
    await tx.shopGoods.createMany({ data: c.shopGoods, skipDuplicates: true });
    await tx.signReward.createMany({ data: c.signRewards, skipDuplicates: true });
    await tx.challengeTask.createMany({ data: c.challengeTasks, skipDuplicates: true });
    await tx.infoCollectOption.createMany({ data: c.surveyOptions, skipDuplicates: true });
    await tx.feedbackCategory.createMany({ data: c.feedbackCategories, skipDuplicates: true });
    await tx.helpDocument.createMany({ data: c.helpDocuments, skipDuplicates: true });
    await tx.banner.createMany({ data: c.banners, skipDuplicates: true });
    await tx.indexLink.createMany({ data: c.indexLinks, skipDuplicates: true });
    await tx.appSetting.createMany({ data: c.appSettings, skipDuplicates: true });
    await tx.voiceLibraryItem.createMany({ data: libraryVoices, skipDuplicates: true });
    // Rows above were written with explicit ids; move each serial sequence past them so that
    // rows created later by the app do not collide.
    for (const [table, column] of SERIAL_COLUMNS) {
      await tx.$executeRawUnsafe(
        `SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'),
                GREATEST((SELECT COALESCE(MAX("${column}"), 0) FROM "${table}"), 1))`,
      );
    }
    // remembered in the database itself (a backup carries it with the rows it describes)
    await tx.$executeRawUnsafe(`COMMENT ON TABLE "${SEED_MARK_TABLE}" IS '${SEED_MARK_PREFIX}${seedFingerprint()}'`);
  }, SEED_TRANSACTION);
}

/**
 * The catalogue's fingerprint, which a seeded database keeps as the comment of one of its tables: a
 * start whose catalogue has not changed since the last seed skips it (`seedIsCurrent`) — with it the
 * ORM's first query (~0.3 s and ~50 MB before the first request: bench/README.md "Start-up").
 */
const SEED_MARK_TABLE = "pay_goods";
const SEED_MARK_PREFIX = "yuelu seed ";
let fingerprint: string | undefined;
export function seedFingerprint(): string {
  // the instance id is random per process (only the first seed's is kept): not part of the catalogue
  const settings = c.appSettings.filter((s) => s.key !== "instance_id");
  fingerprint ??= createHash("sha256")
    .update(JSON.stringify([{ ...c, appSettings: settings }, libraryVoices, SERIAL_COLUMNS]))
    .digest("hex")
    .slice(0, 32);
  return fingerprint;
}

/** The SQL `seedIsCurrent` asks, for a caller with its own connection (one row: `mark`). */
export const SEED_MARK_QUERY = `SELECT obj_description('"${SEED_MARK_TABLE}"'::regclass, 'pg_class') AS mark`;

/** Whether the database was seeded with this catalogue (from the answer to SEED_MARK_QUERY). */
export function seedIsCurrent(rows: { mark: string | null }[]): boolean {
  return rows[0]?.mark === `${SEED_MARK_PREFIX}${seedFingerprint()}`;
}

const SERIAL_COLUMNS = [
  ["feedback_categories", "id"],
  ["banners", "id"],
  ["index_links", "id"],
  ["notifications", "notifyId"],
  ["voice_library", "promptId"],
] as const;
