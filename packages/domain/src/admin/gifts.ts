import {
  type AdminGiftBatch,
  type AdminGiftBatchCreate,
  type AdminGiftBatchCreated,
  type AdminGiftBatchQuery,
  type AdminGiftCode,
  type AdminGiftCodeQuery,
  type AdminGiftKind,
  type AdminGiftRedemption,
  type AdminPage,
  type AdminPageQuery,
  GIFT_MEMBERSHIP_TYPES,
  maskGiftCode,
  pageWindow,
  RewardType,
  StatusCode,
} from "@yuelu/contracts";
import { type GiftCodeModel, Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { createGiftCodes } from "../rewards/gift-codes.ts";
import { transact } from "../transaction.ts";
import { type AdminActor, audit } from "./audit.ts";
import { lockKey } from "./keys.ts";

/**
 * Gift codes in the console (docs/admin.md, "Gift codes"): batches made here or by the CLI, their
 * usage, the users who redeemed a code, a CSV of a batch, and disabling (a disabled code answers
 * 60004 to whoever redeems it). Lists show codes masked; whole codes go out only with a batch's
 * creation and its export, each written to the audit log. Codes are made by createGiftCodes and redeemed by redeemGiftCode:
 * the limits and the exactly-once redeem live there.
 */

type Ctx = Pick<DomainContext, "db" | "events" | "clock">;

/** The membership reward type the console and the CLI create (101–199 all mean days). */
const MEMBER_DAYS_TYPE = GIFT_MEMBERSHIP_TYPES.min;

export function giftKindOf(rewardType: number): AdminGiftKind {
  if (rewardType === RewardType.Beans) return "beans";
  if (rewardType === RewardType.TimeCard) return "cardMinutes";
  return "memberDays";
}

/** rewardNumber in the kind's unit (a card's seconds as minutes). */
function rewardOf(rewardType: number, rewardNumber: number): number {
  return rewardType === RewardType.TimeCard ? rewardNumber / 60 : rewardNumber;
}

/** An ISO instant, or YYYY-MM-DD: the end of that day in Beijing time (as the CLI's --expires). */
export function giftExpiry(text: string | undefined, now: Date): Date | undefined {
  if (text === undefined || text === "") return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T23:59:59+08:00`) : new Date(text);
  if (Number.isNaN(date.getTime())) throw AppError.invalid("expiresAt", "invalid format");
  if (date <= now) throw AppError.invalid("expiresAt", "must be in the future");
  return date;
}

/**
 * Creates a batch of codes under a new name. The name is the batch's idempotency key: under a lock
 * on it, a batch that exists already with the same figures answers its codes (created: false: a
 * double click, a retried request); different figures under a taken name are 10002 batch.
 */
export async function createGiftBatch(
  ctx: Ctx,
  actor: AdminActor,
  input: AdminGiftBatchCreate,
): Promise<AdminGiftBatchCreated> {
  const rewardType =
    input.kind === "beans" ? RewardType.Beans : input.kind === "cardMinutes" ? RewardType.TimeCard : MEMBER_DAYS_TYPE;
  const rewardNumber = input.kind === "cardMinutes" ? input.reward * 60 : input.reward;
  const expiresAt = giftExpiry(input.expiresAt, ctx.clock.now());
  return transact(ctx, async (tx) => {
    await lockKey(tx, `gift-batch:${input.batch}`);
    const existing = await tx.giftCode.findMany({ where: { batch: input.batch }, orderBy: { id: "asc" } });
    if (existing.length > 0) {
      const same =
        existing.length === input.count &&
        existing.every(
          (c) =>
            c.rewardType === rewardType &&
            c.rewardNumber === rewardNumber &&
            c.maxRedemptions === input.maxUses &&
            (c.expiresAt?.getTime() ?? null) === (expiresAt?.getTime() ?? null),
        );
      if (!same) throw AppError.invalid("batch", "already used by another batch");
      // the same create again (a double click, a retry whose answer was lost) hands the codes out again:
      // audited as an export is
      await audit(tx, actor, {
        action: "gift.batch.export",
        target: `gift-batch:${input.batch}`,
        after: { codes: existing.length, via: "create" },
      });
      return { batch: input.batch, codes: existing.map((c) => c.packCode), created: false };
    }
    const codes = await createGiftCodes(
      { db: tx },
      { count: input.count, rewardType, rewardNumber, maxRedemptions: input.maxUses, expiresAt, batch: input.batch },
    );
    await audit(tx, actor, {
      action: "gift.batch.create",
      target: `gift-batch:${input.batch}`,
      after: { kind: input.kind, reward: input.reward, count: input.count, maxUses: input.maxUses, expiresAt },
    });
    return { batch: input.batch, codes, created: true };
  });
}

/** ORDER BY of each sortable column (fixed SQL: the column comes from the query's enum, never from text). */
const BATCH_ORDER: Record<AdminGiftBatchQuery["sort"], Prisma.Sql> = {
  createdAt: Prisma.sql`MIN("createdAt")`,
  batch: Prisma.sql`batch`,
  codes: Prisma.sql`COUNT(*)`,
  uses: Prisma.sql`SUM("redeemedCount")`,
};

interface BatchRow {
  batch: string;
  rewardType: number;
  rewardNumber: number;
  codes: number;
  redeemedCodes: number;
  uses: number;
  maxUses: number;
  disabledCodes: number;
  createdAt: Date;
  expiresAt: Date | null;
}

/** Batches with their usage, aggregated by the database (a batch may hold 10,000 codes). */
export async function giftBatches(
  ctx: Pick<DomainContext, "db">,
  q: AdminGiftBatchQuery,
): Promise<AdminPage<AdminGiftBatch>> {
  const filter = q.q ? Prisma.sql`WHERE batch ILIKE ${`%${q.q.replace(/[\\%_]/g, "\\$&")}%`}` : Prisma.empty;
  const direction = q.order === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const { skip, take } = pageWindow(q);
  const [rows, [counted]] = await Promise.all([
    ctx.db.$queryRaw<BatchRow[]>`
      SELECT batch,
        MIN("rewardType")::int AS "rewardType",
        MIN("rewardNumber")::int AS "rewardNumber",
        COUNT(*)::int AS codes,
        (COUNT(*) FILTER (WHERE "redeemedCount" > 0))::int AS "redeemedCodes",
        SUM("redeemedCount")::float8 AS uses,
        SUM("maxRedemptions")::float8 AS "maxUses",
        (COUNT(*) FILTER (WHERE "disabledAt" IS NOT NULL))::int AS "disabledCodes",
        MIN("createdAt") AS "createdAt",
        MAX("expiresAt") AS "expiresAt"
      FROM gift_codes ${filter}
      GROUP BY batch
      ORDER BY ${BATCH_ORDER[q.sort]} ${direction}, batch ASC
      OFFSET ${skip}::int LIMIT ${take}::int`,
    ctx.db.$queryRaw<{ total: number }[]>`SELECT COUNT(DISTINCT batch)::int AS total FROM gift_codes ${filter}`,
  ]);
  return {
    items: rows.map((g) => ({
      ...g,
      kind: giftKindOf(g.rewardType),
      reward: rewardOf(g.rewardType, g.rewardNumber),
      createdAt: g.createdAt.toISOString(),
      expiresAt: g.expiresAt?.toISOString() ?? null,
    })),
    total: counted?.total ?? 0,
    page: q.page,
    pageSize: q.pageSize,
  };
}

function codeStatus(c: GiftCodeModel, now: Date): AdminGiftCode["status"] {
  if (c.disabledAt) return "disabled";
  if (c.expiresAt && c.expiresAt <= now) return "expired";
  if (c.redeemedCount >= c.maxRedemptions) return "usedUp";
  return "active";
}

/** A code as the console lists it: masked (maskGiftCode), since listing is not audited. */
function codeView(c: GiftCodeModel, now: Date): AdminGiftCode {
  return {
    id: c.id,
    packCode: maskGiftCode(c.packCode),
    batch: c.batch,
    rewardType: c.rewardType,
    rewardNumber: c.rewardNumber,
    kind: giftKindOf(c.rewardType),
    reward: rewardOf(c.rewardType, c.rewardNumber),
    maxRedemptions: c.maxRedemptions,
    redeemedCount: c.redeemedCount,
    expiresAt: c.expiresAt?.toISOString() ?? null,
    disabledAt: c.disabledAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
    status: codeStatus(c, now),
  };
}

/** Codes (of a batch, by code, by status) with their usage, masked. */
export async function giftCodes(
  ctx: Pick<DomainContext, "db" | "clock">,
  q: AdminGiftCodeQuery,
): Promise<AdminPage<AdminGiftCode>> {
  const now = ctx.clock.now();
  const max = ctx.db.giftCode.fields.maxRedemptions;
  const live: Prisma.GiftCodeWhereInput = { disabledAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  const byStatus: Record<AdminGiftCode["status"], Prisma.GiftCodeWhereInput> = {
    disabled: { disabledAt: { not: null } },
    expired: { disabledAt: null, expiresAt: { lte: now } },
    usedUp: { AND: [live, { redeemedCount: { gte: max } }] },
    active: { AND: [live, { redeemedCount: { lt: max } }] },
  };
  const where: Prisma.GiftCodeWhereInput = {
    AND: [
      q.batch !== undefined ? { batch: q.batch } : {},
      // the whole code only: a prefix search would reveal a masked code one character at a time
      q.code ? { packCode: q.code.toUpperCase() } : {},
      q.status ? byStatus[q.status] : {},
    ],
  };
  const [rows, total] = await Promise.all([
    ctx.db.giftCode.findMany({ where, orderBy: [{ [q.sort]: q.order }, { id: q.order }], ...pageWindow(q) }),
    ctx.db.giftCode.count({ where }),
  ]);
  return { items: rows.map((c) => codeView(c, now)), total, page: q.page, pageSize: q.pageSize };
}

/** Who redeemed a code, and when. Unknown code → 30001. */
export async function giftRedemptions(
  ctx: Pick<DomainContext, "db">,
  giftCodeId: number,
  q: AdminPageQuery,
): Promise<AdminPage<AdminGiftRedemption>> {
  const code = await ctx.db.giftCode.findUnique({ where: { id: giftCodeId }, select: { id: true } });
  if (!code) throw new AppError(StatusCode.RecordNotFound);
  const where = { giftCodeId };
  const [rows, total] = await Promise.all([
    ctx.db.giftRedemption.findMany({
      where,
      include: { user: { select: { phone: true, nickName: true } } },
      orderBy: [{ createdAt: q.order }, { id: q.order }],
      ...pageWindow(q),
    }),
    ctx.db.giftRedemption.count({ where }),
  ]);
  return {
    items: rows.map((r) => ({
      userId: r.userId,
      phone: r.user.phone ?? "",
      nickName: r.user.nickName,
      redeemedAt: r.createdAt.toISOString(),
    })),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/**
 * One CSV cell. A cell a spreadsheet would read as a formula (=, +, -, @, tab, carriage return at
 * its start) gets a leading apostrophe, so opening the export never runs anything; cells with a
 * comma, quote or line break are quoted.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const CSV_HEADER = ["code", "batch", "kind", "reward", "max uses", "redeemed", "status", "expires at", "created at"];

/**
 * A batch as CSV (UTF-8 with a byte-order mark, so spreadsheets read Chinese right): one code per
 * row, in full — the one call besides the batch's creation that gives codes out whole. Exporting hands
 * out redeemable codes, so it is audited like a change. Unknown batch → 30001.
 */
export async function giftBatchCsv(ctx: Pick<DomainContext, "db" | "clock">, actor: AdminActor, batch: string) {
  const now = ctx.clock.now();
  const rows = await ctx.db.giftCode.findMany({ where: { batch }, orderBy: { id: "asc" } });
  if (rows.length === 0) throw new AppError(StatusCode.RecordNotFound);
  const lines = [CSV_HEADER.map(csvCell).join(",")];
  for (const c of rows) {
    const v = codeView(c, now);
    lines.push(
      [c.packCode, v.batch, v.kind, v.reward, v.maxRedemptions, v.redeemedCount, v.status, v.expiresAt, v.createdAt]
        .map(csvCell)
        .join(","),
    );
  }
  await audit(ctx.db, actor, {
    action: "gift.batch.export",
    target: `gift-batch:${batch}`,
    after: { codes: rows.length },
  });
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

interface DisableInput {
  disabled: boolean;
  reason: string;
}

/** Disables one code (or enables it again). Unknown code → 30001. Answers how many codes changed (0 or 1). */
export async function disableGiftCode(
  ctx: Ctx,
  actor: AdminActor,
  giftCodeId: number,
  input: DisableInput,
): Promise<{ changed: number }> {
  return transact(ctx, async (tx) => {
    const code = await tx.giftCode.findUnique({ where: { id: giftCodeId } });
    if (!code) throw new AppError(StatusCode.RecordNotFound);
    const { count } = await tx.giftCode.updateMany({
      where: { id: giftCodeId, disabledAt: input.disabled ? null : { not: null } },
      data: { disabledAt: input.disabled ? ctx.clock.now() : null },
    });
    if (count > 0) {
      await audit(tx, actor, {
        action: input.disabled ? "gift.code.disable" : "gift.code.enable",
        target: `gift-code:${code.id}`,
        before: { packCode: maskGiftCode(code.packCode), disabledAt: code.disabledAt },
        after: { disabled: input.disabled },
        reason: input.reason,
      });
    }
    return { changed: count };
  });
}

/** Disables every code of a batch (or enables them again). Unknown batch → 30001. */
export async function disableGiftBatch(
  ctx: Ctx,
  actor: AdminActor,
  batch: string,
  input: DisableInput,
): Promise<{ changed: number }> {
  return transact(ctx, async (tx) => {
    if ((await tx.giftCode.count({ where: { batch } })) === 0) throw new AppError(StatusCode.RecordNotFound);
    const { count } = await tx.giftCode.updateMany({
      where: { batch, disabledAt: input.disabled ? null : { not: null } },
      data: { disabledAt: input.disabled ? ctx.clock.now() : null },
    });
    if (count > 0) {
      await audit(tx, actor, {
        action: input.disabled ? "gift.batch.disable" : "gift.batch.enable",
        target: `gift-batch:${batch}`,
        after: { disabled: input.disabled, codes: count },
        reason: input.reason,
      });
    }
    return { changed: count };
  });
}
