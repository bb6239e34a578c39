import { type Assets, type Lang, StatusCode, SURVEY_SKIP, toEpochSeconds, type UserInfo } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import type { HotSql } from "@yuelu/runtime";
import { AppError } from "../../lib/app-error.ts";
import { addSeconds, SECONDS } from "../../lib/time.ts";

/** Welcome gifts; user info reports each one granted and not yet announced (received, receiveSuccess, blackProReceive). */
export type GiftKind = "new_user" | "invite" | "black_card";

interface UserInfoRow {
  id: number;
  userPhoto: string;
  nickName: string;
  phone: string | null;
  /** epoch seconds, computed by PostgreSQL (cheaper than parsing timestamps here) */
  member_until: number | null;
  created: number;
  infoCollectChannel: string | null;
  infoCollectIdentity: string | null;
  inviteCode: string;
  pending: string[];
}

// One prepared statement: user info is read on every page load (bench/README.md).
const USER_INFO = `
  SELECT u.id, u."userPhoto", u."nickName", u.phone, u."infoCollectChannel", u."infoCollectIdentity", u."inviteCode",
         floor(extract(epoch FROM u."memberEffectiveTime"))::float8 AS member_until,
         floor(extract(epoch FROM u."createdAt"))::float8 AS created,
         COALESCE(array_agg(g.kind) FILTER (WHERE g.kind IS NOT NULL), '{}') AS pending
  FROM users u LEFT JOIN welcome_gifts g ON g."userId" = u.id AND g."shownAt" IS NULL
  WHERE u.id = $1
  GROUP BY u.id`;

export async function getUserInfo(sql: HotSql, userId: number, now = new Date()): Promise<UserInfo> {
  const [user] = await sql.query<UserInfoRow>("user-info", USER_INFO, [userId]);
  if (!user) throw new AppError(StatusCode.NotLoggedIn);
  const pending = new Set(user.pending);
  return {
    userId: user.id,
    userPhoto: user.userPhoto,
    nickName: user.nickName,
    phoneNumber: maskPhone(user.phone ?? ""),
    isMember: user.member_until !== null && user.member_until * 1000 > now.getTime(),
    memberEffectiveTime: user.member_until ?? 0,
    infoCollectChannel: user.infoCollectChannel ?? "",
    infoCollectIdentity: user.infoCollectIdentity ?? "",
    received: pending.has("new_user"),
    receiveSuccess: pending.has("invite"),
    blackProReceive: pending.has("black_card"),
    createTime: user.created,
    inviteCode: user.inviteCode,
  };
}

export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

export async function updateUserInfo(
  db: Db,
  sql: HotSql,
  userId: number,
  input: { nickName?: string; userPhoto?: string; giftsShown?: GiftKind | GiftKind[] },
): Promise<UserInfo> {
  const shown = input.giftsShown === undefined ? [] : [input.giftsShown].flat();
  await db.$transaction([
    db.user.update({
      where: { id: userId },
      data: {
        ...(input.nickName !== undefined ? { nickName: input.nickName } : {}),
        ...(input.userPhoto !== undefined ? { userPhoto: input.userPhoto } : {}),
      },
    }),
    db.welcomeGift.updateMany({ where: { userId, kind: { in: shown }, shownAt: null }, data: { shownAt: new Date() } }),
  ]);
  return getUserInfo(sql, userId);
}

/** Spec §3 Assets: seconds left on valid time cards, and the bean balance. */
export async function getAssets(db: Db, userId: number, now = new Date()): Promise<Assets> {
  const [cards, user] = await Promise.all([
    db.timeCard.aggregate({ where: { userId, expiresAt: { gt: now } }, _sum: { remaining: true } }),
    db.user.findUniqueOrThrow({ where: { id: userId }, select: { beanBalance: true } }),
  ]);
  return { allTimeCard: cards._sum.remaining ?? 0, allCoinNumber: user.beanBalance };
}

/** Messages addressed to the user or broadcast, that the user has not read. */
export async function unreadSize(db: Db, userId: number): Promise<number> {
  return db.notification.count({
    where: { OR: [{ userId }, { userId: null }], reads: { none: { userId } } },
  });
}

// ── account deletion: 10006 from the request on, until cancelled or purged after the grace period ──

export async function deletionStatus(db: Db, userId: number, graceDays: number) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { deleteRequestedAt: true } });
  const at = user.deleteRequestedAt;
  return {
    status: at ? 1 : 0,
    deleteTime: toEpochSeconds(at),
    purgeTime: at ? toEpochSeconds(addSeconds(at, graceDays * SECONDS.day)) : 0,
  };
}

export async function requestDeletion(db: Db, userId: number, graceDays: number) {
  // Conditional: a second request keeps the first date (and so the purge date).
  await db.user.updateMany({ where: { id: userId, deleteRequestedAt: null }, data: { deleteRequestedAt: new Date() } });
  return deletionStatus(db, userId, graceDays);
}

export async function cancelDeletion(db: Db, userId: number, graceDays: number) {
  // Not once purged: a tombstone stays a tombstone.
  await db.user.updateMany({ where: { id: userId, deletedAt: null }, data: { deleteRequestedAt: null } });
  return deletionStatus(db, userId, graceDays);
}

/** Records this visit as the last login and answers the previous one (epoch seconds, 0 if none). */
export async function touchLastLogin(db: Db, userId: number) {
  const [before] = await db.$queryRaw<{ previous: Date | null }[]>`
    UPDATE users u SET "lastLoginAt" = now()
    FROM (SELECT id, "lastLoginAt" AS previous FROM users WHERE id = ${userId} FOR UPDATE) old
    WHERE u.id = old.id
    RETURNING old.previous`;
  return { lastLoginTime: toEpochSeconds(before?.previous ?? null) };
}

export async function virtualLogin(db: Db, tempCode: string, ip: string) {
  const existing = await db.virtualVisitor.findUnique({ where: { tempCode }, select: { tempCode: true } });
  await db.virtualVisitor.upsert({
    where: { tempCode },
    create: { tempCode, ip },
    update: { lastSeenAt: new Date(), ip },
  });
  return { tempCode, firstSeen: !existing };
}

// ── the identity survey ──

export async function surveyOptions(db: Db, lang: Lang) {
  const options = await db.infoCollectOption.findMany({ orderBy: [{ kind: "asc" }, { sort: "asc" }] });
  const view = (kind: string) =>
    options
      .filter((o) => o.kind === kind)
      .map((o) => ({ id: o.id, name: lang === "en" ? o.nameEn : o.name, value: o.name }));
  return { identityList: view("identity"), channelList: view("channel") };
}

/**
 * Stores the survey answers. Each must be one of the listed options (by value, its Chinese name,
 * or its English name) or 'Skip', which the SPA sends for what a user closed without answering.
 */
export async function updateSurvey(db: Db, userId: number, input: { identity?: string; channel?: string }) {
  const options = await db.infoCollectOption.findMany();
  const resolve = (kind: "identity" | "channel", value: string | undefined) => {
    if (value === undefined) return undefined;
    if (value.toLowerCase() === SURVEY_SKIP.toLowerCase()) return SURVEY_SKIP;
    const match = options.find(
      (o) => o.kind === kind && (o.name === value || o.nameEn.toLowerCase() === value.toLowerCase()),
    );
    if (!match) throw AppError.invalid(kind, "not one of the listed options");
    return match.name;
  };
  const identity = resolve("identity", input.identity);
  const channel = resolve("channel", input.channel);
  await db.user.update({
    where: { id: userId },
    data: {
      ...(identity !== undefined ? { infoCollectIdentity: identity } : {}),
      ...(channel !== undefined ? { infoCollectChannel: channel } : {}),
    },
  });
  return { infoCollectIdentity: identity ?? null, infoCollectChannel: channel ?? null };
}

/** The user's record folders ('menus'); menuId as a string (spec §3). */
export async function folderList(db: Db, userId: number) {
  const folders = await db.folder.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  return folders.map((f) => ({ menuId: String(f.menuId), menuName: f.menuName }));
}
