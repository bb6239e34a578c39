import {
  type AudioRecord,
  type CheckAudio,
  type FileInfo,
  FileStatus,
  MAX_TRANSCRIBE_SECONDS,
  MENU_MAX,
  type RecordListQuery,
  type RecycledRecord,
  StatusCode,
  toEpochSeconds,
} from "@yuelu/contracts";
import { type Db, likeLiteral, Prisma } from "@yuelu/db";
import { AppError, type DomainContext, reindexRecord, storageInfo, TX_OPTIONS } from "@yuelu/domain";
import { renamedFileName } from "./names.ts";

/** Where the SPA plays and downloads a record from (spec §3 audioPath). */
export const audioPathOf = (fileId: number) => `/voice_yuelu/api/v3/audio/download?fileId=${fileId}&inline=1`;

const notFound = () => new AppError(StatusCode.RecordNotFound);

const recordSelect = {
  fileId: true,
  fileName: true,
  fileStatus: true,
  timeLen: true,
  updateTime: true,
  format: true,
  fileSize: true,
  sampleRate: true,
  progress: true,
  menuId: true,
  deletedAt: true,
} as const;
type RecordRow = Prisma.AudioRecordGetPayload<{ select: typeof recordSelect }>;

export function toRecordView(r: RecordRow): AudioRecord {
  return {
    fileId: r.fileId,
    fileName: r.fileName,
    fileStatus: r.fileStatus,
    timeLen: r.timeLen,
    updateTime: toEpochSeconds(r.updateTime),
    format: r.format,
    fileSize: Number(r.fileSize),
    sampleRate: r.sampleRate,
    audioPath: audioPathOf(r.fileId),
    progress: r.progress,
    menuId: r.menuId === null ? null : String(r.menuId),
  };
}

/** A record of the user's that is not in the bin; anything else (another user's, binned, unknown) is 30001. */
export async function visibleRecord(db: Db, userId: number, fileId: number) {
  const record = await db.audioRecord.findFirst({ where: { fileId, userId, deletedAt: null } });
  if (!record) throw notFound();
  return record;
}

/** The user's visible records with these ids, in the order asked; 30001 unless every one is. */
export async function visibleRecords(db: Db, userId: number, fileIds: number[]) {
  const rows = await db.audioRecord.findMany({ where: { fileId: { in: fileIds }, userId, deletedAt: null } });
  if (rows.length !== fileIds.length) throw notFound();
  const byId = new Map(rows.map((r) => [r.fileId, r]));
  return fileIds.map((id) => byId.get(id)!);
}

/** 30001 unless the folder is the user's (another user's folder is never revealed). */
export async function assertOwnFolder(db: Db, userId: number, menuId: number) {
  const folder = await db.folder.findFirst({ where: { menuId, userId }, select: { menuId: true } });
  if (!folder) throw notFound();
}

// ───────────────────────────── lists ─────────────────────────────

/**
 * all_list (mode "all": every record, the folder filter optional) and list (mode "folder": one
 * folder's records, no folder when menuId is 0 or absent). Newest first; `fileName` is a
 * case-insensitive substring; filters sent as -1 were dropped by the schema (spec §5).
 */
export async function listRecords(db: Db, userId: number, query: RecordListQuery, mode: "all" | "folder") {
  const menuId = mode === "folder" ? (query.menuId ?? null) : query.menuId;
  if (typeof menuId === "number") await assertOwnFolder(db, userId, menuId);
  const where: Prisma.AudioRecordWhereInput = {
    userId,
    deletedAt: null,
    ...(menuId !== undefined ? { menuId } : {}),
    ...(query.fileStatus !== undefined ? { fileStatus: query.fileStatus } : {}),
    ...(query.fileName ? { fileName: { contains: likeLiteral(query.fileName), mode: "insensitive" } } : {}),
  };
  const skip = (query.page - 1) * query.pageSize;
  const rows = await db.audioRecord.findMany({
    where,
    select: recordSelect,
    orderBy: [{ createdAt: "desc" }, { fileId: "desc" }],
    skip,
    take: query.pageSize,
  });
  return {
    total: await totalOf(rows.length, skip, query.pageSize, () => db.audioRecord.count({ where })),
    records: rows.map(toRecordView),
  };
}

/**
 * A list's total: a page that is not full is the last one, so the total is known without counting
 * (most users' lists fit on one page: one query instead of four round trips, which matters when the
 * embedded database also serves a busy worker). Counted when the page is full, or empty past page 1.
 */
async function totalOf(got: number, skip: number, pageSize: number, count: () => Promise<number>): Promise<number> {
  if (got > 0 && got < pageSize) return skip + got;
  if (got === 0 && skip === 0) return 0;
  return count();
}

/** The recycle bin, most recently binned first; each record also carries deleteTime. */
export async function recycleList(db: Db, userId: number, page: { page: number; pageSize: number }) {
  const where: Prisma.AudioRecordWhereInput = { userId, deletedAt: { not: null } };
  const skip = (page.page - 1) * page.pageSize;
  const rows = await db.audioRecord.findMany({
    where,
    select: recordSelect,
    orderBy: [{ deletedAt: "desc" }, { fileId: "desc" }],
    skip,
    take: page.pageSize,
  });
  const total = await totalOf(rows.length, skip, page.pageSize, () => db.audioRecord.count({ where }));
  const records: RecycledRecord[] = rows.map((r) => ({ ...toRecordView(r), deleteTime: toEpochSeconds(r.deletedAt) }));
  return { total, records };
}

/** Spec §3 Untranscribed audio: records never transcribed (0) or whose transcription failed (-1). */
export async function untranscribed(db: Db, userId: number) {
  return db.audioRecord.findMany({
    where: { userId, deletedAt: null, fileStatus: { in: [FileStatus.Waiting, FileStatus.Failed] } },
    select: { fileStatus: true, fileName: true, timeLen: true, fileId: true },
    orderBy: [{ createdAt: "desc" }, { fileId: "desc" }],
    take: 9999,
  });
}

// ───────────────────────────── folders ─────────────────────────────

const menuView = (f: { menuId: number; menuName: string }) => ({ menuId: String(f.menuId), menuName: f.menuName });
const nameTaken = () => AppError.invalid("menuName", "a folder with this name already exists");

function isUniqueViolation(error: unknown) {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * A new folder, at most MENU_MAX per user: the user's row is locked while counting, so parallel
 * creates take turns and the cap holds however many arrive together.
 */
export async function createMenu(db: Db, userId: number, menuName: string) {
  try {
    return await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::int FOR UPDATE`;
      if ((await tx.folder.count({ where: { userId } })) >= MENU_MAX) {
        throw AppError.invalid("menuName", `at most ${MENU_MAX} folders`);
      }
      return menuView(await tx.folder.create({ data: { userId, menuName } }));
    }, TX_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function updateMenu(db: Db, userId: number, menuId: number, menuName: string) {
  await assertOwnFolder(db, userId, menuId);
  try {
    return menuView(await db.folder.update({ where: { menuId }, data: { menuName } }));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** Deletes a folder; its records (binned ones included) move to no folder. */
export async function deleteMenu(db: Db, userId: number, menuId: number) {
  const deleted = await db.$transaction(async (tx) => {
    await tx.audioRecord.updateMany({ where: { userId, menuId }, data: { menuId: null } });
    return tx.folder.deleteMany({ where: { menuId, userId } });
  });
  if (deleted.count === 0) throw notFound();
  return { menuId: String(menuId) };
}

// ───────────────────────────── moving, bin, restore, delete ─────────────────────────────

/**
 * Runs `change` on exactly these records of the user's matching `scope`, or on none of them:
 * when any id is not the user's (or not in the scope) the transaction rolls back with 30001.
 */
async function changeAll(
  db: Db,
  userId: number,
  fileIds: number[],
  scope: Prisma.AudioRecordWhereInput,
  data: Prisma.AudioRecordUncheckedUpdateManyInput,
) {
  await db.$transaction(async (tx) => {
    const changed = await tx.audioRecord.updateMany({ where: { fileId: { in: fileIds }, userId, ...scope }, data });
    if (changed.count !== fileIds.length) throw notFound();
  });
  return { fileIds };
}

/** move / move_batch: into a folder of the user's, or out of any folder (menuId null). */
export async function moveRecords(db: Db, userId: number, fileIds: number[], menuId: number | null) {
  if (menuId !== null) await assertOwnFolder(db, userId, menuId);
  await changeAll(db, userId, fileIds, { deletedAt: null }, { menuId });
  return { fileIds, menuId: menuId === null ? null : String(menuId) };
}

/** delete_record / delete_batch: to the recycle bin. */
export function binRecords(db: Db, userId: number, fileIds: number[]) {
  return changeAll(db, userId, fileIds, { deletedAt: null }, { deletedAt: new Date() });
}

/** restore: back from the bin (only records that are in it). */
export function restoreRecords(db: Db, userId: number, fileIds: number[]) {
  return changeAll(db, userId, fileIds, { deletedAt: { not: null } }, { deletedAt: null });
}

/** update_record: renames (keeping the extension when the new name has none). */
export async function renameRecord(db: Db, userId: number, fileId: number, fileName: string) {
  const record = await visibleRecord(db, userId, fileId);
  const updated = await db.$transaction(async (tx) => {
    const renamed = await tx.audioRecord.update({
      where: { fileId: record.fileId },
      data: { fileName: renamedFileName(fileName, record.fileName, record.format) },
      select: recordSelect,
    });
    // the name is searchable: its row changes with it (docs/search.md)
    await reindexRecord(tx, record.fileId);
    return renamed;
  }, TX_OPTIONS);
  return toRecordView(updated);
}

export async function getRecord(db: Db, userId: number, fileId: number) {
  return toRecordView(await visibleRecord(db, userId, fileId));
}

// ───────────────────────────── checks and facts ─────────────────────────────

/**
 * check_audio: whether transcribing the record now would pass the limits the dictation call
 * enforces, and the code it would otherwise hit: 50001 (over 3 hours), 50002 (today's quota cannot
 * fit it), 20001 (valid time cards' remaining seconds cannot).
 */
export async function checkAudio(domain: DomainContext, userId: number, fileId: number): Promise<CheckAudio> {
  const record = await visibleRecord(domain.db, userId, fileId);
  const seconds = Math.ceil(record.timeLen);
  let reason: number | undefined;
  if (record.timeLen > MAX_TRANSCRIBE_SECONDS) {
    reason = StatusCode.AudioTooLong;
  } else {
    const storage = await storageInfo(domain, userId);
    if (storage.timeUsedToday + seconds > storage.timeLimitToday) reason = StatusCode.DailyQuotaExceeded;
    else if (storage.timeLimit - storage.timeUsed < seconds) reason = StatusCode.StorageQuotaExceeded;
  }
  return {
    fileId: record.fileId,
    exists: true,
    fileStatus: record.fileStatus,
    timeLen: record.timeLen,
    canTranscribe: reason === undefined,
    ...(reason !== undefined ? { reason } : {}),
  };
}

/** s/file/info: the facts ffprobe gave at upload. */
export async function fileInfo(db: Db, userId: number, fileId: number): Promise<FileInfo> {
  const r = await visibleRecord(db, userId, fileId);
  return {
    fileId: r.fileId,
    fileName: r.fileName,
    format: r.format,
    fileSize: Number(r.fileSize),
    timeLen: r.timeLen,
    sampleRate: r.sampleRate,
    channels: r.channels,
    codec: r.codec,
    createTime: toEpochSeconds(r.createdAt),
  };
}
