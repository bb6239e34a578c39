import {
  type AdminPage,
  type AdminPayGoods,
  type AdminPayGoodsCreate,
  type AdminPayGoodsEdit,
  type AdminPayGoodsQuery,
  type AdminShopGoods,
  type AdminShopGoodsCreate,
  type AdminShopGoodsEdit,
  type AdminShopGoodsQuery,
  GoodsType,
  pageWindow,
  StatusCode,
  TradeStatus,
} from "@yuelu/contracts";
import type { PayGoodsModel, Prisma, ShopGoodsModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { transact } from "../transaction.ts";
import { type AdminActor, audit } from "./audit.ts";
import { changedFields, holds, isUniqueViolation } from "./keys.ts";

/**
 * The catalogue in the console (docs/admin.md, "Catalogue"): pay goods (membership plans and
 * duration cards, integer fen) and shop goods (beans). Nothing caches either list: the cashier and
 * the shop read the rows on every call, and an order copies the price into its own amountFen when it
 * is placed, so a change holds from the next order on and never touches an order already placed.
 * Every change commits with its audit row (before and after of the fields it changed).
 */

type Ctx = Pick<DomainContext, "db" | "events">;

const PAID = [TradeStatus.Paid, TradeStatus.Finished];

// ── pay goods ──

type PayFields = Omit<PayGoodsModel, "goodsId" | "currency">;

/** The rules across fields, on the goods as they would be after the change (10002 naming the field). */
function checkPayGoods(g: PayFields): void {
  if (g.originalPriceFen < g.priceFen) throw AppError.invalid("originalPriceFen", `at least ${g.priceFen}`);
  if (g.goodsType === GoodsType.Membership) {
    if (g.memberDays < 1) throw AppError.invalid("memberDays", "at least 1");
    if (g.duration !== 0) throw AppError.invalid("duration", "at most 0");
  } else {
    if (g.duration < 1) throw AppError.invalid("duration", "at least 1");
    if (g.memberDays !== 0) throw AppError.invalid("memberDays", "at most 0");
  }
}

async function payGoodsRows(ctx: Pick<DomainContext, "db">, rows: PayGoodsModel[]): Promise<AdminPayGoods[]> {
  const ids = rows.map((r) => r.goodsId);
  const [all, paid] = await Promise.all([
    ctx.db.order.groupBy({ by: ["goodsId"], where: { goodsId: { in: ids } }, _count: { _all: true } }),
    ctx.db.order.groupBy({
      by: ["goodsId"],
      where: { goodsId: { in: ids }, tradeStatus: { in: PAID } },
      _count: { _all: true },
    }),
  ]);
  const count = (groups: typeof all, id: number) => groups.find((g) => g.goodsId === id)?._count._all ?? 0;
  return rows.map((g) => ({ ...g, orders: count(all, g.goodsId), paidOrders: count(paid, g.goodsId) }));
}

/** Goods whose Chinese or English name contains `text` (any case); no filter without it. */
function nameFilter(text: string | undefined) {
  if (!text) return {};
  return {
    OR: [
      { goodsName: { contains: text, mode: "insensitive" as const } },
      { goodsNameEn: { contains: text, mode: "insensitive" as const } },
    ],
  };
}

export async function adminPayGoodsList(
  ctx: Pick<DomainContext, "db">,
  q: AdminPayGoodsQuery,
): Promise<AdminPage<AdminPayGoods>> {
  const where: Prisma.PayGoodsWhereInput = {
    ...(q.goodsType !== undefined ? { goodsType: q.goodsType } : {}),
    ...(q.enabled !== undefined ? { enabled: q.enabled } : {}),
    ...nameFilter(q.q),
  };
  const [rows, total] = await Promise.all([
    ctx.db.payGoods.findMany({ where, orderBy: [{ [q.sort]: q.order }, { goodsId: "asc" }], ...pageWindow(q) }),
    ctx.db.payGoods.count({ where }),
  ]);
  return { items: await payGoodsRows(ctx, rows), total, page: q.page, pageSize: q.pageSize };
}

export async function adminPayGoods(ctx: Pick<DomainContext, "db">, goodsId: number): Promise<AdminPayGoods> {
  const row = await ctx.db.payGoods.findUnique({ where: { goodsId } });
  if (!row) throw new AppError(StatusCode.GoodsNotFound);
  const [view] = await payGoodsRows(ctx, [row]);
  return view as AdminPayGoods;
}

/**
 * A new plan or card under the goodsId the operator chose. The id is the natural key: the same goods
 * sent again (a double click, a retry) answers the existing row without a second audit row; other
 * goods under a taken id are refused (10002 goodsId).
 */
export async function createPayGoods(ctx: Ctx, actor: AdminActor, input: AdminPayGoodsCreate): Promise<AdminPayGoods> {
  checkPayGoods(input);
  const replayOrTaken = async () => {
    const existing = await ctx.db.payGoods.findUnique({ where: { goodsId: input.goodsId } });
    if (existing && holds(existing, input)) return adminPayGoods(ctx, input.goodsId);
    if (existing) throw AppError.invalid("goodsId", "already used by other goods");
    return null;
  };
  const earlier = await replayOrTaken();
  if (earlier) return earlier;
  try {
    await transact(ctx, async (tx) => {
      const row = await tx.payGoods.create({ data: input });
      await audit(tx, actor, { action: "goods.create", target: `goods:${row.goodsId}`, after: row });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await replayOrTaken(); // a parallel copy of this create won
    if (raced) return raced;
    throw error;
  }
  return adminPayGoods(ctx, input.goodsId);
}

/**
 * Changes what the operator sent (price, names, enabled, sort…), checked as a whole afterwards. The
 * row is locked for the change, so two operators' edits apply one after the other. A price change
 * holds from the next order; orders already placed keep their amountFen.
 */
export async function editPayGoods(
  ctx: Ctx,
  actor: AdminActor,
  goodsId: number,
  edit: AdminPayGoodsEdit,
): Promise<AdminPayGoods> {
  await transact(ctx, async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM pay_goods WHERE "goodsId" = ${goodsId}::int FOR UPDATE`;
    const current = await tx.payGoods.findUnique({ where: { goodsId } });
    if (!current) throw new AppError(StatusCode.GoodsNotFound);
    const { before, after, changed } = changedFields(current, edit);
    if (!changed) return;
    checkPayGoods({ ...current, ...after });
    await tx.payGoods.update({ where: { goodsId }, data: after });
    const action = "priceFen" in after ? "goods.price" : "goods.update";
    await audit(tx, actor, { action, target: `goods:${goodsId}`, before, after });
  });
  return adminPayGoods(ctx, goodsId);
}

/** Sets sort 1, 2, 3… in the order given (pay goods or shop goods); unknown ids → 10002 goodsIds. */
async function reorder(
  ctx: Ctx,
  actor: AdminActor,
  kind: "goods" | "shop",
  goodsIds: number[],
): Promise<{ goodsId: number; sort: number }[]> {
  if (new Set(goodsIds).size !== goodsIds.length) throw AppError.invalid("goodsIds", "invalid value");
  return transact(ctx, async (tx) => {
    const which = { where: { goodsId: { in: goodsIds } }, select: { goodsId: true, sort: true } } as const;
    const rows = kind === "goods" ? await tx.payGoods.findMany(which) : await tx.shopGoods.findMany(which);
    if (rows.length !== goodsIds.length) throw AppError.invalid("goodsIds", "not one of the listed options");
    const before: Record<number, number> = {};
    const after: Record<number, number> = {};
    for (const [i, goodsId] of goodsIds.entries()) {
      const sort = i + 1;
      const old = rows.find((r) => r.goodsId === goodsId)?.sort;
      if (old === sort) continue;
      before[goodsId] = old ?? 0;
      after[goodsId] = sort;
      if (kind === "goods") await tx.payGoods.update({ where: { goodsId }, data: { sort } });
      else await tx.shopGoods.update({ where: { goodsId }, data: { sort } });
    }
    if (Object.keys(after).length > 0) {
      await audit(tx, actor, { action: `${kind}.reorder`, target: kind, before, after });
    }
    return goodsIds.map((goodsId, i) => ({ goodsId, sort: i + 1 }));
  });
}

export function reorderPayGoods(ctx: Ctx, actor: AdminActor, goodsIds: number[]) {
  return reorder(ctx, actor, "goods", goodsIds);
}

// ── shop goods ──

type ShopFields = Omit<ShopGoodsModel, "goodsId">;

function checkShopGoods(g: ShopFields): void {
  if (g.originalCoin < g.exchangeCoin) throw AppError.invalid("originalCoin", `at least ${g.exchangeCoin}`);
}

async function shopGoodsRows(ctx: Pick<DomainContext, "db">, rows: ShopGoodsModel[]): Promise<AdminShopGoods[]> {
  const purchases = await ctx.db.shopPurchase.groupBy({
    by: ["goodsId"],
    where: { goodsId: { in: rows.map((r) => r.goodsId) } },
    _count: { _all: true },
  });
  return rows.map((g) => ({
    ...g,
    purchases: purchases.find((p) => p.goodsId === g.goodsId)?._count._all ?? 0,
  }));
}

export async function adminShopGoodsList(
  ctx: Pick<DomainContext, "db">,
  q: AdminShopGoodsQuery,
): Promise<AdminPage<AdminShopGoods>> {
  const where: Prisma.ShopGoodsWhereInput = {
    ...(q.enabled !== undefined ? { enabled: q.enabled } : {}),
    ...nameFilter(q.q),
  };
  const [rows, total] = await Promise.all([
    ctx.db.shopGoods.findMany({ where, orderBy: [{ [q.sort]: q.order }, { goodsId: "asc" }], ...pageWindow(q) }),
    ctx.db.shopGoods.count({ where }),
  ]);
  return { items: await shopGoodsRows(ctx, rows), total, page: q.page, pageSize: q.pageSize };
}

export async function adminShopGoods(ctx: Pick<DomainContext, "db">, goodsId: number): Promise<AdminShopGoods> {
  const row = await ctx.db.shopGoods.findUnique({ where: { goodsId } });
  if (!row) throw new AppError(StatusCode.GoodsNotFound);
  const [view] = await shopGoodsRows(ctx, [row]);
  return view as AdminShopGoods;
}

/** A new shop goods; like pay goods, the goodsId is the natural key of the create. */
export async function createShopGoods(
  ctx: Ctx,
  actor: AdminActor,
  input: AdminShopGoodsCreate,
): Promise<AdminShopGoods> {
  checkShopGoods(input);
  const replayOrTaken = async () => {
    const existing = await ctx.db.shopGoods.findUnique({ where: { goodsId: input.goodsId } });
    if (existing && holds(existing, input)) return adminShopGoods(ctx, input.goodsId);
    if (existing) throw AppError.invalid("goodsId", "already used by other goods");
    return null;
  };
  const earlier = await replayOrTaken();
  if (earlier) return earlier;
  try {
    await transact(ctx, async (tx) => {
      const row = await tx.shopGoods.create({ data: input });
      await audit(tx, actor, { action: "shop.create", target: `shop:${row.goodsId}`, after: row });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await replayOrTaken();
    if (raced) return raced;
    throw error;
  }
  return adminShopGoods(ctx, input.goodsId);
}

/**
 * Changes a shop goods. The shop's redeem states the bean price the user saw and is refused when it
 * differs (purchaseGoods), so a price change never charges anyone more than they agreed to.
 */
export async function editShopGoods(
  ctx: Ctx,
  actor: AdminActor,
  goodsId: number,
  edit: AdminShopGoodsEdit,
): Promise<AdminShopGoods> {
  await transact(ctx, async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM shop_goods WHERE "goodsId" = ${goodsId}::int FOR UPDATE`;
    const current = await tx.shopGoods.findUnique({ where: { goodsId } });
    if (!current) throw new AppError(StatusCode.GoodsNotFound);
    const { before, after, changed } = changedFields(current, edit);
    if (!changed) return;
    checkShopGoods({ ...current, ...after });
    await tx.shopGoods.update({ where: { goodsId }, data: after });
    const priced = "originalCoin" in after || "exchangeCoin" in after || "discount" in after;
    await audit(tx, actor, { action: priced ? "shop.price" : "shop.update", target: `shop:${goodsId}`, before, after });
  });
  return adminShopGoods(ctx, goodsId);
}

export function reorderShopGoods(ctx: Ctx, actor: AdminActor, goodsIds: number[]) {
  return reorder(ctx, actor, "shop", goodsIds);
}
