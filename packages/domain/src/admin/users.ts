import {
  type AdminBeanPage,
  type AdminBeanQuery,
  type AdminGrant,
  type AdminUserDetail,
  type AdminUserPage,
  type AdminUserQuery,
  type AdminUserRow,
  type AdminUserStatusResult,
  type Lang,
  pageWindow,
  StatusCode,
} from "@yuelu/contracts";
import type { AdminGrantModel, Db, Prisma, UserModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { transact } from "../transaction.ts";
import { isMemberAt } from "../wallet/membership.ts";
import { type AdminActor, audit } from "./audit.ts";
import { storageOfUser } from "./storage.ts";

/** The operator console's users (docs/admin.md "Users"): search, one user's detail, disable and enable. */

type Ctx = Pick<DomainContext, "db" | "clock" | "events">;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function adminUserRow(user: UserModel, now: Date): AdminUserRow {
  return {
    id: user.id,
    phone: user.phone,
    nickName: user.nickName,
    role: user.role === "admin" ? "admin" : "user",
    disabledAt: iso(user.disabledAt),
    deleteRequestedAt: iso(user.deleteRequestedAt),
    beanBalance: user.beanBalance,
    memberUntil: iso(user.memberEffectiveTime),
    isMember: isMemberAt(user.memberEffectiveTime, now),
    lastLoginAt: iso(user.lastLoginAt),
    createdAt: user.createdAt.toISOString(),
  };
}

export function adminGrantView(grant: AdminGrantModel): AdminGrant {
  return { ...grant, kind: grant.kind as AdminGrant["kind"], createdAt: grant.createdAt.toISOString() };
}

/** The users table: `q` matches a phone (exactly or as its prefix) or an id; filtered by role and status. */
export async function adminUsers(ctx: Pick<DomainContext, "db" | "clock">, q: AdminUserQuery): Promise<AdminUserPage> {
  const search = q.q ?? "";
  const asId = search && search.length <= 10 && Number(search) <= 2_147_483_647 ? Number(search) : undefined;
  const where: Prisma.UserWhereInput = {
    ...(search ? { OR: [{ phone: { startsWith: search } }, ...(asId ? [{ id: asId }] : [])] } : {}),
    ...(q.role ? { role: q.role } : {}),
    ...(q.status === "disabled" ? { disabledAt: { not: null } } : {}),
    ...(q.status === "deleting" ? { deleteRequestedAt: { not: null }, deletedAt: null } : {}),
    ...(q.status === "active" ? { disabledAt: null, deleteRequestedAt: null, deletedAt: null } : {}),
  };
  // nullable columns sort their nulls last either way, so "latest sign-in first" starts with real ones
  const nullable = q.sort === "lastLoginAt" || q.sort === "memberEffectiveTime";
  const orderBy: Prisma.UserOrderByWithRelationInput[] = [
    { [q.sort]: nullable ? { sort: q.order, nulls: "last" } : q.order },
    { id: q.order },
  ];
  const [rows, total] = await Promise.all([
    ctx.db.user.findMany({ where, orderBy, ...pageWindow(q) }),
    ctx.db.user.count({ where }),
  ]);
  const now = ctx.clock.now();
  return { items: rows.map((u) => adminUserRow(u, now)), total, page: q.page, pageSize: q.pageSize };
}

/** The user, or 30001. */
async function userOrThrow(db: Db | Prisma.TransactionClient, userId: number): Promise<UserModel> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new AppError(StatusCode.RecordNotFound);
  return user;
}

/** Seconds left on the user's cards that have not expired. */
export async function cardSecondsLeft(db: Db | Prisma.TransactionClient, userId: number, now: Date): Promise<number> {
  const sum = await db.timeCard.aggregate({
    where: { userId, expiresAt: { gt: now } },
    _sum: { remaining: true },
  });
  return sum._sum.remaining ?? 0;
}

/** Everything the console shows about one user. */
export async function adminUserDetail(
  ctx: Pick<DomainContext, "db" | "clock">,
  userId: number,
  lang: Lang,
): Promise<AdminUserDetail> {
  const { db } = ctx;
  const user = await userOrThrow(db, userId);
  const now = ctx.clock.now();
  const [sessions, cards, secondsLeft, orders, orderCount, recordCount, storageBytes, voiceCount, grants] =
    await Promise.all([
      db.session.count({ where: { userId, expiresAt: { gt: now } } }),
      db.timeCard.findMany({ where: { userId }, orderBy: [{ expiresAt: "desc" }, { id: "desc" }], take: 100 }),
      cardSecondsLeft(db, userId, now),
      db.order.findMany({
        where: { userId },
        include: { goods: true },
        orderBy: [{ createdAt: "desc" }, { orderNumber: "desc" }],
        take: 20,
      }),
      db.order.count({ where: { userId } }),
      db.audioRecord.count({ where: { userId } }),
      storageOfUser(db, userId),
      db.userVoice.count({ where: { userId } }),
      db.adminGrant.findMany({ where: { userId }, orderBy: { id: "desc" }, take: 20 }),
    ]);
  return {
    ...adminUserRow(user, now),
    userPhoto: user.userPhoto,
    disabledReason: user.disabledReason,
    inviteCode: user.inviteCode,
    invitedById: user.invitedById,
    sessions,
    cards: cards.map((c) => ({
      id: c.id,
      seconds: c.seconds,
      remaining: c.remaining,
      expiresAt: c.expiresAt.toISOString(),
      expired: c.expiresAt <= now,
      source: c.source,
      refId: c.refId,
      createdAt: c.createdAt.toISOString(),
    })),
    cardSecondsLeft: secondsLeft,
    orders: orders.map((o) => ({
      orderNumber: o.orderNumber,
      goodsId: o.goodsId,
      goodsName: lang === "en" ? o.goods.goodsNameEn : o.goods.goodsName,
      amountFen: o.amountFen,
      tradeStatus: o.tradeStatus,
      createdAt: o.createdAt.toISOString(),
      paidAt: iso(o.paidAt),
      refundedAt: iso(o.refundedAt),
    })),
    orderCount,
    recordCount,
    storageBytes,
    voiceCount,
    grants: grants.map(adminGrantView),
  };
}

/** One user's bean ledger, newest first. */
export async function adminBeanLedger(db: Db, userId: number, q: AdminBeanQuery): Promise<AdminBeanPage> {
  await userOrThrow(db, userId);
  const where = { userId };
  const [rows, total] = await Promise.all([
    db.beanLedger.findMany({ where, orderBy: [{ createdAt: q.order }, { id: q.order }], ...pageWindow(q) }),
    db.beanLedger.count({ where }),
  ]);
  return {
    items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/**
 * Disables a user (or enables one again), with the operator's reason. Disabling ends every session
 * of theirs in the same transaction, and after the commit "user.changed" drops them from every
 * replica's session cache: their next call answers 10001, and signing in answers 10007 (the sign-in
 * refuses disabled users). An operator cannot disable themself (10002 naming userId).
 */
export async function setUserDisabled(
  ctx: Ctx,
  actor: AdminActor,
  userId: number,
  disabled: boolean,
  reason: string,
): Promise<AdminUserStatusResult> {
  if (disabled && actor.id === userId) throw AppError.invalid("userId", "invalid value");
  const now = ctx.clock.now();
  return transact(ctx, async (tx, after) => {
    // Locked: a disable and an enable of the same user at once take turns, each audited against what it saw.
    const [user] = await tx.$queryRaw<UserModel[]>`SELECT * FROM users WHERE id = ${userId}::int FOR UPDATE`;
    if (!user) throw new AppError(StatusCode.RecordNotFound);
    if (Boolean(user.disabledAt) === disabled) {
      return {
        id: userId,
        disabledAt: iso(user.disabledAt),
        disabledReason: user.disabledReason,
        changed: false,
        sessionsEnded: 0,
      };
    }
    const updated = await tx.user.update({
      where: { id: userId },
      data: disabled ? { disabledAt: now, disabledReason: reason } : { disabledAt: null, disabledReason: "" },
    });
    const ended = disabled ? (await tx.session.deleteMany({ where: { userId } })).count : 0;
    await audit(tx, actor, {
      action: disabled ? "user.disable" : "user.enable",
      target: `user:${userId}`,
      before: { disabledAt: user.disabledAt, disabledReason: user.disabledReason },
      after: { disabledAt: updated.disabledAt, disabledReason: updated.disabledReason, sessionsEnded: ended },
      reason,
    });
    after.publish({ type: "user.changed", userId });
    return {
      id: userId,
      disabledAt: iso(updated.disabledAt),
      disabledReason: updated.disabledReason,
      changed: true,
      sessionsEnded: ended,
    };
  });
}
