import { randomBytes } from "node:crypto";
import {
  type Segment,
  SHARE_DEFAULT_EXPIRE_DAYS,
  SHARE_DEFAULT_REUSE_SECONDS,
  type ShareExpireDays,
  type ShareLink,
  type ShareState,
  StatusCode,
  toEpochSeconds,
} from "@yuelu/contracts";
import type { ShareLinkModel as ShareLinkRow } from "@yuelu/db";
import { defaultNickName } from "../account/sign-up.ts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { visibleTo } from "../records/library.ts";
import { segmentsOf } from "../records/segments.ts";
import { TaskState } from "../tasks/task-state.ts";
import { transact } from "../transaction.ts";
import { hashSharePassword, verifySharePassword } from "./password.ts";

/**
 * Share links (docs/share.md): the owner's read-only public link to one record. The token is 32
 * random bytes (256 bits, base64url): guessing one is infeasible, and /s/ guesses are rate-limited too.
 * Only the owner's visible records (not in the recycle bin) with a transcript can be shared.
 */

type Ctx = Pick<DomainContext, "db" | "clock">;
/** Builds a link's public address from its token (the API knows the origin; the rules do not). */
export type ShareUrlOf = (token: string) => string;

const DAY_MS = 86_400_000;
/** base64url of 32 bytes: 43 characters, no padding */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface NewShareLink {
  fileId: number;
  expireDays: ShareExpireDays;
  password?: string | undefined;
  withAudio: boolean;
  /** a link to one of the record's clips (docs/clips.md): a cut clip of the caller's */
  clipId?: number | undefined;
}

const notFound = () => new AppError(StatusCode.RecordNotFound);

export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

export function isShareToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

function stateOf(row: ShareLinkRow, now: Date): ShareState {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt <= now) return "expired";
  return "active";
}

export function shareLinkView(row: ShareLinkRow, urlOf: ShareUrlOf, now: Date): ShareLink {
  return {
    id: row.id,
    fileId: row.fileId,
    url: urlOf(row.token),
    withAudio: row.withAudio,
    hasPassword: row.passwordHash !== null,
    expireDays: row.expiresAt ? Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / DAY_MS) : 0,
    expireTime: toEpochSeconds(row.expiresAt),
    createTime: toEpochSeconds(row.createdAt),
    viewCount: row.viewCount,
    lastViewTime: toEpochSeconds(row.lastViewedAt),
    state: stateOf(row, now),
    ...(row.clipId !== null ? { clipId: row.clipId } : {}),
  };
}

/** The caller's visible record with a transcript, or 30001 (someone else's, in the bin, or not transcribed). */
async function assertShareable(db: Ctx["db"], userId: number, fileId: number): Promise<void> {
  const record = await db.audioRecord.findFirst({
    where: { fileId, ...visibleTo(userId), transcript: { isNot: null } },
    select: { fileId: true },
  });
  if (!record) throw notFound();
}

/** A new link to one of the caller's records; a password is stored scrypt-hashed only. */
export async function createShareLink(
  ctx: Ctx,
  userId: number,
  input: NewShareLink,
  urlOf: ShareUrlOf,
): Promise<ShareLink> {
  await assertShareable(ctx.db, userId, input.fileId);
  if (input.clipId !== undefined) await assertClipShareable(ctx.db, userId, input.fileId, input.clipId);
  const now = ctx.clock.now();
  const passwordHash = input.password ? await hashSharePassword(input.password) : null;
  const row = await ctx.db.shareLink.create({
    data: {
      token: newShareToken(),
      fileId: input.fileId,
      userId,
      withAudio: input.withAudio,
      passwordHash,
      expiresAt: input.expireDays === 0 ? null : new Date(now.getTime() + input.expireDays * DAY_MS),
      createdAt: now,
      clipId: input.clipId ?? null,
    },
  });
  return shareLinkView(row, urlOf, now);
}

/** The caller's clip of that record, cut: else 30001 (a clip still cutting, failed, or not theirs). */
async function assertClipShareable(db: Ctx["db"], userId: number, fileId: number, clipId: number): Promise<void> {
  const clip = await db.clip.findFirst({
    where: { id: clipId, fileId, userId, status: TaskState.Done, storageKey: { not: null } },
    select: { id: true },
  });
  if (!clip) throw notFound();
}

/**
 * generate_url with only a fileId (the spec's client): a 7-day link with audio and no password. The
 * newest such link made in the last SHARE_DEFAULT_REUSE_SECONDS is answered again instead of a new
 * one, so double clicks and retries do not pile up links; parallel calls queue on the record's row lock.
 */
export async function defaultShareLink(
  ctx: Ctx & Pick<DomainContext, "events">,
  userId: number,
  fileId: number,
  urlOf: ShareUrlOf,
): Promise<ShareLink> {
  await assertShareable(ctx.db, userId, fileId);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SHARE_DEFAULT_EXPIRE_DAYS * DAY_MS);
  return transact(ctx, async (tx) => {
    await tx.$queryRaw`SELECT "fileId" FROM audio_records WHERE "fileId" = ${fileId}::int FOR UPDATE`;
    const recent = await tx.shareLink.findMany({
      where: {
        fileId,
        userId,
        withAudio: true,
        passwordHash: null,
        revokedAt: null,
        createdAt: { gte: new Date(now.getTime() - SHARE_DEFAULT_REUSE_SECONDS * 1000) },
        expiresAt: { gt: now },
      },
      orderBy: { id: "desc" },
      take: 10,
    });
    // a default link is one made for exactly the default days
    const reuse = recent.find(
      (r) => r.expiresAt && r.expiresAt.getTime() - r.createdAt.getTime() === SHARE_DEFAULT_EXPIRE_DAYS * DAY_MS,
    );
    const row =
      reuse ??
      (await tx.shareLink.create({
        data: { token: newShareToken(), fileId, userId, withAudio: true, expiresAt, createdAt: now },
      }));
    return shareLinkView(row, urlOf, now);
  });
}

/** The record's links that are not revoked, newest first; 30001 unless the record is the caller's and visible. */
export async function listShareLinks(
  ctx: Ctx,
  userId: number,
  fileId: number,
  urlOf: ShareUrlOf,
): Promise<ShareLink[]> {
  const record = await ctx.db.audioRecord.findFirst({
    where: { fileId, ...visibleTo(userId) },
    select: { fileId: true },
  });
  if (!record) throw notFound();
  const rows = await ctx.db.shareLink.findMany({
    where: { fileId, userId, revokedAt: null },
    orderBy: { id: "desc" },
  });
  const now = ctx.clock.now();
  return rows.map((r) => shareLinkView(r, urlOf, now));
}

/** Revokes one of the caller's links at once; someone else's, or one already revoked, is not found (30001). */
export async function revokeShareLink(ctx: Ctx, userId: number, id: number): Promise<{ id: number }> {
  const done = await ctx.db.shareLink.updateMany({
    where: { id, userId, revokedAt: null },
    data: { revokedAt: ctx.clock.now() },
  });
  if (done.count === 0) throw notFound();
  return { id };
}

export type ShareRefusal = "not-found" | "revoked" | "expired" | "record-deleted";

export interface SharedRecord {
  link: { id: number; token: string; withAudio: boolean; passwordHash: string | null };
  record: {
    fileId: number;
    userId: number;
    fileName: string;
    timeLen: number;
    format: string;
    storageKey: string;
    createdAt: Date;
  };
  /** the only thing of the owner's a visitor sees: their nickname, unless it is still the default (null) */
  ownerName: string | null;
  /** a link to one clip (docs/clips.md): the page shows it instead of the whole record */
  clip?: {
    id: number;
    title: string;
    startTime: number;
    endTime: number;
    kind: string;
    storageKey: string;
    /** its captions: times from the clip's start */
    segments: Segment[];
  };
}

export type ShareResolution = { ok: true; shared: SharedRecord } | { ok: false; reason: ShareRefusal };

/**
 * What a public token opens: the link and its record, or why not. A malformed token is not looked up.
 * A record in the recycle bin (or deleted for good) counts as gone, and so does every record of an owner who
 * was disabled or asked to delete their account.
 */
export async function resolveShareToken(ctx: Ctx, token: string): Promise<ShareResolution> {
  if (!isShareToken(token)) return { ok: false, reason: "not-found" };
  const row = await ctx.db.shareLink.findUnique({
    where: { token },
    include: {
      record: {
        select: {
          fileId: true,
          userId: true,
          fileName: true,
          timeLen: true,
          format: true,
          storageKey: true,
          createdAt: true,
          deletedAt: true,
        },
      },
      user: { select: { nickName: true, phone: true, disabledAt: true, deleteRequestedAt: true } },
      clip: {
        select: { id: true, title: true, startTime: true, endTime: true, kind: true, segments: true, storageKey: true },
      },
    },
  });
  if (!row) return { ok: false, reason: "not-found" };
  const state = stateOf(row, ctx.clock.now());
  if (state !== "active") return { ok: false, reason: state };
  if (row.record.deletedAt || row.record.userId !== row.userId) return { ok: false, reason: "record-deleted" };
  // an owner an operator disabled, or who asked to delete their account, shares nothing any more
  if (row.user.disabledAt || row.user.deleteRequestedAt) return { ok: false, reason: "record-deleted" };
  const { deletedAt: _deleted, ...record } = row.record;
  // a clip's link: the clip's own page (its file, its captions); a clip without its file is gone
  if (row.clipId !== null && !row.clip?.storageKey) return { ok: false, reason: "record-deleted" };
  const clip = row.clip?.storageKey
    ? {
        id: row.clip.id,
        title: row.clip.title,
        startTime: row.clip.startTime,
        endTime: row.clip.endTime,
        kind: row.clip.kind,
        storageKey: row.clip.storageKey,
        segments: segmentsOf(row.clip.segments),
      }
    : undefined;
  return {
    ok: true,
    shared: {
      link: { id: row.id, token: row.token, withAudio: row.withAudio, passwordHash: row.passwordHash },
      record,
      ...(clip ? { clip } : {}),
      // the nickname made at sign-up ends with the phone's last four digits: that one is not shown
      ownerName:
        row.user.phone !== null && row.user.nickName === defaultNickName(row.user.phone) ? null : row.user.nickName,
    },
  };
}

/** One view of the page: an atomic increment (parallel views all count), never for a revoked link. */
export async function countShareView(ctx: Ctx, linkId: number): Promise<void> {
  await ctx.db.shareLink.updateMany({
    where: { id: linkId, revokedAt: null },
    data: { viewCount: { increment: 1 }, lastViewedAt: ctx.clock.now() },
  });
}

/** Whether `password` opens the link; a link without a password needs none. */
export async function checkSharePassword(link: SharedRecord["link"], password: string): Promise<boolean> {
  if (!link.passwordHash) return true;
  return verifySharePassword(password, link.passwordHash);
}
