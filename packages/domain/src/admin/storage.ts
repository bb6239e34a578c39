import type { AdminPage, AdminStorageQuery, AdminStorageRow } from "@yuelu/contracts";
import { pageWindow } from "@yuelu/contracts";
import { type Db, Prisma } from "@yuelu/db";

/**
 * Bytes each user stores, from the sizes the database keeps: records (the recycle bin included:
 * their files stay until deleted forever), text-to-speech works and sung or converted songs. Voice
 * samples and previews keep no size, so they are not counted.
 */
const PER_USER = Prisma.sql`
  WITH per AS (
    SELECT "userId" AS user_id, count(*)::bigint AS records, sum("fileSize")::bigint AS record_bytes, 0::bigint AS work_bytes
    FROM audio_records GROUP BY 1
    UNION ALL
    SELECT "userId", 0, 0, sum(COALESCE("fileSize", 0))::bigint FROM tts_tasks GROUP BY 1
    UNION ALL
    SELECT "userId", 0, 0, sum(COALESCE("fileSize", 0))::bigint FROM voice_works GROUP BY 1
  ),
  totals AS (
    SELECT user_id, sum(records)::bigint AS records, sum(record_bytes)::bigint AS record_bytes,
           sum(work_bytes)::bigint AS work_bytes, (sum(record_bytes) + sum(work_bytes))::bigint AS bytes
    FROM per GROUP BY user_id
  )`;

interface StorageSqlRow {
  user_id: number;
  phone: string | null;
  nick_name: string;
  records: bigint;
  record_bytes: bigint;
  work_bytes: bigint;
  bytes: bigint;
}

// Whitelisted column names: the sort is spliced into the SQL, never a caller's text.
const SORT_SQL: Record<AdminStorageQuery["sort"], string> = {
  bytes: "t.bytes",
  recordBytes: "t.record_bytes",
  records: "t.records",
};

/** Users by the bytes they store (largest first by default), with every user's total. */
export async function storageByUser(
  db: Db,
  q: AdminStorageQuery,
): Promise<AdminPage<AdminStorageRow> & { totalBytes: number }> {
  const { skip, take } = pageWindow(q);
  const direction = q.order === "asc" ? Prisma.raw("ASC") : Prisma.raw("DESC");
  const column = Prisma.raw(SORT_SQL[q.sort]);
  const [rows, [sums]] = await Promise.all([
    db.$queryRaw<StorageSqlRow[]>`${PER_USER}
      SELECT t.*, u.phone, u."nickName" AS nick_name FROM totals t JOIN users u ON u.id = t.user_id
      WHERE t.bytes > 0 OR t.records > 0
      ORDER BY ${column} ${direction}, t.user_id ${direction}
      LIMIT ${take} OFFSET ${skip}`,
    db.$queryRaw<{ users: bigint; bytes: bigint | null }[]>`${PER_USER}
      SELECT count(*)::bigint AS users, sum(bytes)::bigint AS bytes FROM totals WHERE bytes > 0 OR records > 0`,
  ]);
  return {
    items: rows.map((r) => ({
      userId: r.user_id,
      phone: r.phone,
      nickName: r.nick_name,
      records: Number(r.records),
      recordBytes: Number(r.record_bytes),
      workBytes: Number(r.work_bytes),
      bytes: Number(r.bytes),
    })),
    total: Number(sums?.users ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    totalBytes: Number(sums?.bytes ?? 0),
  };
}

/** The bytes one user stores (the same sizes as storageByUser). */
export async function storageOfUser(db: Db, userId: number): Promise<number> {
  const [row] = await db.$queryRaw<{ bytes: bigint | null }[]>`
    SELECT (COALESCE((SELECT sum("fileSize") FROM audio_records WHERE "userId" = ${userId}::int), 0)
          + COALESCE((SELECT sum("fileSize") FROM tts_tasks WHERE "userId" = ${userId}::int), 0)
          + COALESCE((SELECT sum("fileSize") FROM voice_works WHERE "userId" = ${userId}::int), 0))::bigint AS bytes`;
  return Number(row?.bytes ?? 0);
}
