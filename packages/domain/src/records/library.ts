import { DEFAULT_SORT_ORDER, MENU_MAX, type RecordSortField, type SortOrder, StatusCode } from "@yuelu/contracts";
import { type Db, Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { TX_OPTIONS, type Tx, transact } from "../transaction.ts";
import { renamedFileName } from "./names.ts";

/**
 * A user's library (docs/records-api.md "Library"): which records they see, their folders, and moving,
 * binning, restoring and renaming records. Every rule of the API and the worker that reads or changes a
 * user's record goes through `visibleTo` — theirs, not in the bin — so the rule is written once.
 */

const notFound = () => new AppError(StatusCode.RecordNotFound);

/** The records a user sees: theirs and not in the bin (a Prisma filter, for every read of them). */
export const visibleTo = (userId: number) => ({ userId, deletedAt: null }) satisfies Prisma.AudioRecordWhereInput;

/** The user's records in the recycle bin. */
export const binnedOf = (userId: number) =>
  ({ userId, deletedAt: { not: null } }) satisfies Prisma.AudioRecordWhereInput;

/** A record of the user's that is not in the bin; anything else (another user's, binned, unknown) is 30001. */
export async function visibleRecord(db: Db | Tx, userId: number, fileId: number) {
  const record = await db.audioRecord.findFirst({ where: { fileId, ...visibleTo(userId) } });
  if (!record) throw notFound();
  return record;
}

/** The user's visible records with these ids, in the order asked; 30001 unless every one is. */
export async function visibleRecords(db: Db | Tx, userId: number, fileIds: number[]) {
  const rows = await db.audioRecord.findMany({ where: { fileId: { in: fileIds }, ...visibleTo(userId) } });
  if (rows.length !== fileIds.length) throw notFound();
  const byId = new Map(rows.map((r) => [r.fileId, r]));
  return fileIds.map((id) => byId.get(id)!);
}

/**
 * The order of a record list (docs/records-api.md "Library"): by name, by when the record was made
 * (createTime — never updateTime, which a move or a restore rewrites) or by length, in `order` or the
 * field's own default (names A→Z, newest and longest first); newest first when nothing is asked. Ties
 * go by id in the same direction, so pages never repeat or skip a row.
 */
export function recordListOrder(
  sortBy: RecordSortField = "time",
  order: SortOrder = DEFAULT_SORT_ORDER[sortBy],
): Prisma.AudioRecordOrderByWithRelationInput[] {
  const first: Prisma.AudioRecordOrderByWithRelationInput =
    sortBy === "name" ? { fileName: order } : sortBy === "duration" ? { timeLen: order } : { createdAt: order };
  return [first, ...(sortBy === "time" ? [] : [{ createdAt: order }]), { fileId: order }];
}

/** 30001 unless the folder is the user's (another user's folder is never revealed). */
export async function assertOwnFolder(db: Db | Tx, userId: number, menuId: number) {
  const folder = await db.folder.findFirst({ where: { menuId, userId }, select: { menuId: true } });
  if (!folder) throw notFound();
}

// ───────────────────────────── folders ─────────────────────────────

export interface Folder {
  menuId: number;
  menuName: string;
}

const nameTaken = () => AppError.invalid("menuName", "a folder with this name already exists");

function isUniqueViolation(error: unknown) {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * A new folder, at most MENU_MAX per user: the user's row is locked while counting, so parallel
 * creates take turns and the cap holds however many arrive together.
 */
export async function createFolder(db: Db, userId: number, menuName: string): Promise<Folder> {
  try {
    return await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::int FOR UPDATE`;
      if ((await tx.folder.count({ where: { userId } })) >= MENU_MAX) {
        throw AppError.invalid("menuName", `at most ${MENU_MAX} folders`);
      }
      return tx.folder.create({ data: { userId, menuName }, select: { menuId: true, menuName: true } });
    }, TX_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function renameFolder(db: Db, userId: number, menuId: number, menuName: string): Promise<Folder> {
  await assertOwnFolder(db, userId, menuId);
  try {
    return await db.folder.update({ where: { menuId }, data: { menuName }, select: { menuId: true, menuName: true } });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** Deletes a folder; its records (binned ones included) move to no folder. */
export async function deleteFolder(db: Db, userId: number, menuId: number): Promise<void> {
  const deleted = await db.$transaction(async (tx) => {
    await tx.audioRecord.updateMany({ where: { userId, menuId }, data: { menuId: null } });
    return tx.folder.deleteMany({ where: { menuId, userId } });
  });
  if (deleted.count === 0) throw notFound();
}

// ───────────────────────────── moving, bin, restore, rename ─────────────────────────────

/**
 * Runs `change` on exactly these records of the user's matching `scope`, or on none of them:
 * when any id is not the user's (or not in the scope) the transaction rolls back with 30001.
 */
async function changeAll(
  db: Db,
  fileIds: number[],
  scope: Prisma.AudioRecordWhereInput,
  data: Prisma.AudioRecordUncheckedUpdateManyInput,
) {
  await db.$transaction(async (tx) => {
    const changed = await tx.audioRecord.updateMany({ where: { fileId: { in: fileIds }, ...scope }, data });
    if (changed.count !== fileIds.length) throw notFound();
  });
  return { fileIds };
}

/** move / move_batch: into a folder of the user's, or out of any folder (menuId null). */
export async function moveRecords(db: Db, userId: number, fileIds: number[], menuId: number | null) {
  if (menuId !== null) await assertOwnFolder(db, userId, menuId);
  await changeAll(db, fileIds, visibleTo(userId), { menuId });
  return { fileIds, menuId };
}

/** delete_record / delete_batch: to the recycle bin. */
export function binRecords(db: Db, userId: number, fileIds: number[]) {
  return changeAll(db, fileIds, visibleTo(userId), { deletedAt: new Date() });
}

/** restore: back from the bin (only records that are in it). */
export function restoreRecords(db: Db, userId: number, fileIds: number[]) {
  return changeAll(db, fileIds, binnedOf(userId), { deletedAt: null });
}

/**
 * update_record: renames (keeping the extension when the new name has none). The name is searchable:
 * `record.changed` has the index rewritten in the same transaction (docs/search.md).
 */
export async function renameRecord(
  ctx: Pick<DomainContext, "db" | "events">,
  userId: number,
  fileId: number,
  fileName: string,
) {
  return transact(ctx, async (tx, after) => {
    const record = await visibleRecord(tx, userId, fileId);
    const renamed = await tx.audioRecord.update({
      where: { fileId: record.fileId },
      data: { fileName: renamedFileName(fileName, record.fileName, record.format) },
    });
    after.publish({ type: "record.changed", userId, fileId });
    return renamed;
  });
}
