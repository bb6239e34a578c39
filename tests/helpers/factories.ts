import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { FileStatus } from "@yuelu/contracts";
import type { Db, TimeCardSource } from "@yuelu/db";
import { decodedSeconds, type FileStore } from "@yuelu/runtime";

/**
 * Test data factories (documenso's seedUser() style): each makes rows directly, with unique values,
 * so tests and benches run in parallel on one database without stepping on each other.
 */

let counter = 0;
function tag(): string {
  counter += 1;
  return `${process.pid.toString(36)}${counter.toString(36)}${randomBytes(2).toString("hex")}`;
}

/** A phone number no other factory call in this run has used. */
export function freshPhone(): string {
  const n = (process.pid % 1000) * 100_000 + (++counter % 100_000);
  return `136${String(n).padStart(8, "0")}`;
}

export interface SeedUserOptions {
  phone?: string;
  nickName?: string;
  /** bean balance, posted as one 'seed' ledger row so the balance equals the ledger sum */
  beans?: number;
  /** membership until this instant (null/absent: not a member) */
  memberUntil?: Date | null;
  deleteRequestedAt?: Date | null;
}

export async function seedUser(db: Db, options: SeedUserOptions = {}) {
  const phone = options.phone ?? freshPhone();
  const user = await db.user.create({
    data: {
      phone,
      nickName: options.nickName ?? `用户${phone.slice(-4)}`,
      memberEffectiveTime: options.memberUntil ?? null,
      deleteRequestedAt: options.deleteRequestedAt ?? null,
    },
  });
  if (options.beans) {
    await db.$transaction([
      db.beanLedger.create({
        data: { userId: user.id, amount: options.beans, reason: "seed", refId: tag(), balanceAfter: options.beans },
      }),
      db.user.update({ where: { id: user.id }, data: { beanBalance: options.beans } }),
    ]);
  }
  return db.user.findUniqueOrThrow({ where: { id: user.id } });
}

export interface SeedCard {
  seconds: number;
  /** default: seconds (unused) */
  remaining?: number;
  /** default: 30 days from now */
  expiresAt?: Date;
  source?: TimeCardSource;
}

/** Time cards for a user (source 'gift' unless given); answers them in the order given. */
export async function seedCards(db: Db, userId: number, cards: SeedCard[]) {
  const made = [];
  for (const card of cards) {
    made.push(
      await db.timeCard.create({
        data: {
          userId,
          seconds: card.seconds,
          remaining: card.remaining ?? card.seconds,
          expiresAt: card.expiresAt ?? new Date(Date.now() + 30 * 86_400_000),
          source: card.source ?? "gift",
          refId: `seed-${tag()}`,
        },
      }),
    );
  }
  return made;
}

export interface SeedRecordOptions {
  userId: number;
  fileName?: string;
  timeLen?: number;
  fileStatus?: number;
  menuId?: number | null;
  deletedAt?: Date | null;
  /** a real media file to put in the store (its size and extension are used); else a placeholder key */
  audioFile?: string;
  files?: FileStore;
}

/** An audio record as an upload leaves it (status 0 unless given). */
export async function seedRecord(db: Db, options: SeedRecordOptions) {
  const ext = options.audioFile ? path.extname(options.audioFile).slice(1) : "mp3";
  const key = `media/${options.userId}/${tag()}.${ext}`;
  let size = 1024;
  let measured: number | undefined;
  if (options.audioFile) {
    if (!options.files) throw new Error("seedRecord: audioFile needs files");
    await options.files.put(key, createReadStream(options.audioFile));
    size = (await stat(options.audioFile)).size;
    // as an upload measures it (records/probe.ts): the worker decodes no more than this
    if (options.timeLen === undefined) {
      const { seconds } = await decodedSeconds(options.audioFile, { maxSeconds: 5 * 3600 }).catch(() => ({
        seconds: 60,
      }));
      measured = Math.max(1, Math.round(seconds));
    }
  }
  return db.audioRecord.create({
    data: {
      userId: options.userId,
      fileName: options.fileName ?? (options.audioFile ? path.basename(options.audioFile) : `record-${tag()}.${ext}`),
      format: ext,
      fileSize: BigInt(size),
      timeLen: options.timeLen ?? measured ?? 60,
      sampleRate: 16_000,
      channels: 1,
      storageKey: key,
      fileStatus: options.fileStatus ?? FileStatus.Waiting,
      menuId: options.menuId ?? null,
      deletedAt: options.deletedAt ?? null,
    },
  });
}

export interface SeedOrderOptions {
  userId: number;
  /** a seeded pay goods id (7/8/9 membership plans, 1–5 duration cards); default 8 */
  goodsId?: number;
  tradeStatus?: number;
  /** default: 15 minutes from now */
  expiresAt?: Date;
}

/** A payment order as execute_payment leaves it (created, unpaid), for the goods' current price. */
export async function seedOrder(db: Db, options: SeedOrderOptions) {
  const goodsId = options.goodsId ?? 8;
  const goods = await db.payGoods.findUniqueOrThrow({ where: { goodsId } });
  return db.order.create({
    data: {
      orderNumber: `T${Date.now()}${tag()}`.slice(0, 32),
      userId: options.userId,
      goodsId,
      amountFen: goods.priceFen,
      provider: "mock-alipay",
      tradeStatus: options.tradeStatus ?? -1,
      expiresAt: options.expiresAt ?? new Date(Date.now() + 15 * 60_000),
    },
  });
}
