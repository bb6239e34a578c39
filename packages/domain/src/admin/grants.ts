import { type AdminGrantBody, type AdminGrantResult, StatusCode } from "@yuelu/contracts";
import type { UserModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import type { UserMessage } from "../messages/send.ts";
import { sendUserMessage } from "../messages/send.ts";
import { businessDay, SECONDS } from "../time.ts";
import { transact } from "../transaction.ts";
import { grantBeans } from "../wallet/ledger.ts";
import { extendMembership } from "../wallet/membership.ts";
import { CARD_VALIDITY, grantTimeCard } from "../wallet/time-cards.ts";
import { type AdminActor, audit } from "./audit.ts";
import { adminGrantView, cardSecondsLeft } from "./users.ts";

/**
 * An operator's grant to a user (docs/admin.md "Users"): membership days, a time card or beans, with
 * a written reason and the console's idempotency key `requestId`. Exactly once, however often and
 * however concurrently the same key arrives: the admin_grants row (requestId unique) is inserted
 * first, and only the transaction that inserted it posts to the ledger — which has its own unique
 * key too (bean ledger 'admin_grant'/requestId, time card 'gift'/'admin:<requestId>'). The audit row
 * and the user's message commit with it.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

/** The bean ledger's reason of operator grants (its refId: the requestId). */
export const ADMIN_GRANT_LEDGER_REASON = "admin_grant";

/** What admin_grants stores: card grants in seconds. */
const STORED_KIND = { member_days: "member_days", card_minutes: "card_seconds", beans: "beans" } as const;

export async function grantToUser(
  ctx: Ctx,
  actor: AdminActor,
  userId: number,
  body: AdminGrantBody,
): Promise<AdminGrantResult> {
  const now = ctx.clock.now();
  const kind = STORED_KIND[body.kind];
  const amount = body.kind === "card_minutes" ? body.amount * 60 : body.amount;
  return transact(ctx, async (tx, after) => {
    // Inserted first: a parallel twin waits here on the unique key until this commits, then inserts nothing.
    const { count } = await tx.adminGrant.createMany({
      data: [{ requestId: body.requestId, userId, actorId: actor.id, kind, amount, reason: body.reason }],
      skipDuplicates: true,
    });
    const grant = await tx.adminGrant.findUniqueOrThrow({ where: { requestId: body.requestId } });
    if (count === 0) {
      // The same key for another grant is a client's mistake, not a replay.
      if (grant.userId !== userId || grant.kind !== kind || grant.amount !== amount) {
        throw AppError.invalid("requestId", "already used for another request");
      }
      return { grant: adminGrantView(grant), replayed: true, ...(await stateOf(tx, userId, now)) };
    }
    const [user] = await tx.$queryRaw<UserModel[]>`SELECT * FROM users WHERE id = ${userId}::int FOR UPDATE`;
    if (!user || user.deletedAt) throw new AppError(StatusCode.RecordNotFound);
    const before = await stateOf(tx, userId, now);
    let message: Omit<UserMessage, "sourceRef">;
    if (body.kind === "beans") {
      await grantBeans(tx, userId, amount, ADMIN_GRANT_LEDGER_REASON, body.requestId);
      message = beansMessage(amount);
    } else if (body.kind === "card_minutes") {
      const validSeconds = body.validDays ? body.validDays * SECONDS.day : CARD_VALIDITY.gift;
      await grantTimeCard(tx, {
        userId,
        seconds: amount,
        validSeconds,
        source: "gift",
        refId: `admin:${body.requestId}`,
        now,
      });
      message = cardMessage(
        body.amount,
        businessDay(new Date(now.getTime() + validSeconds * 1000), ctx.config.BUSINESS_TZ),
      );
    } else {
      const until = await extendMembership(tx, userId, amount * SECONDS.day, now);
      message = memberMessage(amount, businessDay(until, ctx.config.BUSINESS_TZ));
    }
    const state = await stateOf(tx, userId, now);
    await audit(tx, actor, {
      action: "user.grant",
      target: `user:${userId}`,
      before,
      after: { ...state, grant: { requestId: body.requestId, kind, amount } },
      reason: body.reason,
    });
    await sendUserMessage(tx, userId, { ...message, sourceRef: `admin-grant:${body.requestId}` });
    after.publish({ type: "user.changed", userId });
    return { grant: adminGrantView(grant), replayed: false, ...state };
  });
}

async function stateOf(tx: Parameters<typeof cardSecondsLeft>[0], userId: number, now: Date) {
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { memberEffectiveTime: true, beanBalance: true },
  });
  if (!user) throw new AppError(StatusCode.RecordNotFound);
  return {
    memberUntil: user.memberEffectiveTime?.toISOString() ?? null,
    beanBalance: user.beanBalance,
    cardSecondsLeft: await cardSecondsLeft(tx, userId, now),
  };
}

function beansMessage(beans: number): Omit<UserMessage, "sourceRef"> {
  return {
    title: "悦豆到账",
    text: `系统向您赠送了 ${beans} 悦豆，已存入您的账户。`,
    titleEn: "Beans added",
    textEn: `You have been given ${beans} beans. They are in your account now.`,
  };
}

function cardMessage(minutes: number, until: string): Omit<UserMessage, "sourceRef"> {
  return {
    title: "时长卡已到账",
    text: `系统向您赠送了 ${minutes} 分钟转写时长卡，有效期至 ${until}。`,
    titleEn: "Time card added",
    textEn: `You have been given a ${minutes}-minute transcription time card, valid until ${until}.`,
  };
}

function memberMessage(days: number, until: string): Omit<UserMessage, "sourceRef"> {
  return {
    title: "会员已延长",
    text: `系统向您赠送了 ${days} 天会员，会员有效期至 ${until}。`,
    titleEn: "Membership extended",
    textEn: `You have been given ${days} days of membership. It is valid until ${until}.`,
  };
}
