import {
  type AudioRecord,
  type CheckAudio,
  type FileInfo,
  FileStatus,
  type RecordListQuery,
  type RecycledRecord,
  toEpochSeconds,
} from "@yuelu/contracts";
import { type Db, likeLiteral, type Prisma } from "@yuelu/db";
import {
  assertOwnFolder,
  binnedOf,
  createFolder,
  type DomainContext,
  deleteFolder,
  type Folder,
  moveRecords as moveRecordsRule,
  recordListOrder,
  renameFolder,
  renameRecord as renameRecordRule,
  storageInfo,
  transcriptionRefusal,
  visibleRecord,
  visibleTo,
} from "@yuelu/domain";
import { recordAudioUrl } from "../../lib/file-urls.ts";

/**
 * The records module's views (docs/records-api.md "Library"): the API's answers built from the rules of
 * domain/records (visibility, folders, moving, the bin, renaming, the transcription refusals), which
 * every write goes through.
 */

/** Where the SPA plays and downloads a record from (spec §3 audioPath). */
export const audioPathOf = recordAudioUrl;

const recordSelect = {
  fileId: true,
  fileName: true,
  fileStatus: true,
  timeLen: true,
  updateTime: true,
  createdAt: true,
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
    createTime: toEpochSeconds(r.createdAt),
    format: r.format,
    fileSize: Number(r.fileSize),
    sampleRate: r.sampleRate,
    audioPath: audioPathOf(r.fileId),
    progress: r.progress,
    menuId: r.menuId === null ? null : String(r.menuId),
  };
}

// ───────────────────────────── lists ─────────────────────────────

/**
 * all_list (mode "all": every record, the folder filter optional) and list (mode "folder": one
 * folder's records, no folder when menuId is 0 or absent). Newest first unless `sortBy`/`order` say
 * otherwise (recordListOrder); `fileName` is a case-insensitive substring; filters sent as -1 were
 * dropped by the schema (spec §5).
 */
export async function listRecords(db: Db, userId: number, query: RecordListQuery, mode: "all" | "folder") {
  const menuId = mode === "folder" ? (query.menuId ?? null) : query.menuId;
  if (typeof menuId === "number") await assertOwnFolder(db, userId, menuId);
  const where: Prisma.AudioRecordWhereInput = {
    ...visibleTo(userId),
    ...(menuId !== undefined ? { menuId } : {}),
    ...(query.fileStatus !== undefined ? { fileStatus: query.fileStatus } : {}),
    ...(query.fileName ? { fileName: { contains: likeLiteral(query.fileName), mode: "insensitive" } } : {}),
  };
  const skip = (query.page - 1) * query.pageSize;
  const rows = await db.audioRecord.findMany({
    where,
    select: recordSelect,
    orderBy: recordListOrder(query.sortBy, query.order),
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
  const where: Prisma.AudioRecordWhereInput = binnedOf(userId);
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
    where: { ...visibleTo(userId), fileStatus: { in: [FileStatus.Waiting, FileStatus.Failed] } },
    select: { fileStatus: true, fileName: true, timeLen: true, fileId: true },
    orderBy: [{ createdAt: "desc" }, { fileId: "desc" }],
    take: 9999,
  });
}

// ───────────────────────────── folders, moving, renaming ─────────────────────────────

const menuView = (f: Folder) => ({ menuId: String(f.menuId), menuName: f.menuName });

export async function createMenu(db: Db, userId: number, menuName: string) {
  return menuView(await createFolder(db, userId, menuName));
}

export async function updateMenu(db: Db, userId: number, menuId: number, menuName: string) {
  return menuView(await renameFolder(db, userId, menuId, menuName));
}

export async function deleteMenu(db: Db, userId: number, menuId: number) {
  await deleteFolder(db, userId, menuId);
  return { menuId: String(menuId) };
}

export async function moveRecords(db: Db, userId: number, fileIds: number[], menuId: number | null) {
  await moveRecordsRule(db, userId, fileIds, menuId);
  return { fileIds, menuId: menuId === null ? null : String(menuId) };
}

export { binRecords, restoreRecords } from "@yuelu/domain";

export async function renameRecord(domain: DomainContext, userId: number, fileId: number, fileName: string) {
  return toRecordView(await renameRecordRule(domain, userId, fileId, fileName));
}

export async function getRecord(db: Db, userId: number, fileId: number) {
  return toRecordView(await visibleRecord(db, userId, fileId));
}

// ───────────────────────────── checks and facts ─────────────────────────────

/**
 * check_audio: whether transcribing the record now would pass the limits the dictation call
 * enforces, and the code it would otherwise hit (domain/records/refusal.ts: 50001, 50002, 20001).
 */
export async function checkAudio(domain: DomainContext, userId: number, fileId: number): Promise<CheckAudio> {
  const record = await visibleRecord(domain.db, userId, fileId);
  const reason = transcriptionRefusal(record, await storageInfo(domain, userId));
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
