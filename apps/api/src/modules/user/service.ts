import { type Lang, StatusCode, toEpochSeconds, type UserInfo } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError } from "@yuelu/domain";
import type { HotSql } from "@yuelu/runtime";
import type { Limiter } from "../../lib/limiter.ts";

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

/** Records this visit as the last login and answers the previous one (epoch seconds, 0 if none). */
export async function touchLastLogin(db: Db, userId: number) {
  const [before] = await db.$queryRaw<{ previous: Date | null }[]>`
    UPDATE users u SET "lastLoginAt" = now()
    FROM (SELECT id, "lastLoginAt" AS previous FROM users WHERE id = ${userId} FOR UPDATE) old
    WHERE u.id = old.id
    RETURNING old.previous`;
  return { lastLoginTime: toEpochSeconds(before?.previous ?? null) };
}

/** New temporary codes one IP may register per hour: each is a row, so an address cannot mint them without end. */
export const VIRTUAL_CODES_PER_IP_HOUR = 30;

/**
 * Registers an anonymous visitor's temporary code (spec §1), or notes that it came back. A code
 * seen before only updates its row; a new one counts against VIRTUAL_CODES_PER_IP_HOUR (10003 beyond).
 */
export async function virtualLogin(db: Db, limiter: Limiter, tempCode: string, ip: string) {
  const seen = await db.virtualVisitor.updateMany({ where: { tempCode }, data: { lastSeenAt: new Date(), ip } });
  if (seen.count === 1) return { tempCode, firstSeen: false };
  if (!(await limiter.hit(`virtual:ip:${ip}`, VIRTUAL_CODES_PER_IP_HOUR, 3600))) {
    throw new AppError(StatusCode.TooManyRequests, {}, 429);
  }
  const created = await db.virtualVisitor.createMany({ data: [{ tempCode, ip }], skipDuplicates: true });
  return { tempCode, firstSeen: created.count === 1 };
}

// ── the identity survey ──

export async function surveyOptions(db: Db, lang: Lang) {
  const options = await db.infoCollectOption.findMany({ orderBy: [{ kind: "asc" }, { sort: "asc" }] });
  // name: shown in the request's language; value: what is stored, the same in every language.
  const view = (kind: string) =>
    options
      .filter((o) => o.kind === kind)
      .map((o) => ({ id: o.id, name: lang === "en" ? o.nameEn : o.name, value: o.name }));
  return { identityList: view("identity"), channelList: view("channel") };
}

/** The user's record folders ('menus'); menuId as a string (spec §3). */
export async function folderList(db: Db, userId: number) {
  const folders = await db.folder.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  return folders.map((f) => ({ menuId: String(f.menuId), menuName: f.menuName }));
}
