import { StatusCode } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import type { Tx } from "../transaction.ts";

/**
 * Storage per user (docs/records-api.md "Storage per user"): what a user's files take may not pass
 * STORAGE_BYTES_PER_USER. Counted: their records' files (the bin included: those files are still kept)
 * and their holds — bytes held for uploads on their way in (a resumable upload from its creation, at its
 * announced length; a one-request upload while it is copied to the store). An unfinished upload counts
 * before a byte of it arrives, so a user cannot fill the disk with uploads they never finish.
 */

/** 20001: the upload does not fit; `used` and `limit` in bytes, for the message. */
export class StorageFull extends AppError {
  constructor(
    readonly used: bigint,
    readonly limit: bigint,
  ) {
    super(StatusCode.StorageQuotaExceeded, { used: used.toString(), limit: limit.toString() }, 200);
  }
}

/** Bytes the user's files take now: records (bin included) and unexpired holds other than `except`. */
export async function storageUsed(db: Db | Tx, userId: number, now: Date, except?: string): Promise<bigint> {
  const [row] = await db.$queryRaw<{ used: bigint }[]>`
    SELECT
      COALESCE((SELECT SUM("fileSize") FROM audio_records WHERE "userId" = ${userId}), 0)::bigint
      + COALESCE((SELECT SUM(bytes) FROM storage_holds
                  WHERE "userId" = ${userId} AND "expiresAt" > ${now} AND id <> ${except ?? ""}), 0)::bigint
      AS used`;
  return row?.used ?? 0n;
}

export interface StorageHoldInput {
  /** the tus upload's id, or the store key of a one-request upload */
  id: string;
  userId: number;
  bytes: number | bigint;
  /** when an upload left unfinished stops counting (its housekeeping removes it then) */
  expiresAt: Date;
}

/**
 * Holds `bytes` for an upload if they fit under the cap beside everything the user keeps; throws
 * StorageFull otherwise. One transaction with the user's row locked: parallel uploads of one user take
 * turns here, so together they cannot pass the cap (the count is made before it is compared). Holding an
 * id again replaces its bytes. A cap of 0 holds nothing.
 */
export async function holdStorage(ctx: Pick<DomainContext, "db" | "clock" | "config">, hold: StorageHoldInput) {
  const limit = BigInt(ctx.config.STORAGE_BYTES_PER_USER);
  if (limit === 0n) return;
  const bytes = BigInt(hold.bytes);
  await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${hold.userId} FOR UPDATE`;
    const used = await storageUsed(tx, hold.userId, ctx.clock.now(), hold.id);
    if (used + bytes > limit) throw new StorageFull(used, limit);
    await tx.storageHold.upsert({
      where: { id: hold.id },
      create: { id: hold.id, userId: hold.userId, bytes, expiresAt: hold.expiresAt },
      update: { bytes, expiresAt: hold.expiresAt },
    });
  });
}

/** Lets go of a hold: the upload became a record (its file now counts as one), or it ended. */
export async function releaseStorage(db: Db | Tx, id: string): Promise<void> {
  await db.storageHold.deleteMany({ where: { id } });
}

/** Removes holds past their expiry (housekeeping; they stopped counting at their expiry already). */
export async function removeExpiredStorageHolds(db: Db, now: Date): Promise<number> {
  const { count } = await db.storageHold.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
