import { type CheckInInfo, SignCheck, type SignResult, StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { businessMonth } from "../time.ts";
import { transact } from "../transaction.ts";
import { grantBeans } from "../wallet/ledger.ts";
import { CARD_VALIDITY, grantTimeCard } from "../wallet/time-cards.ts";
import { advanceTasks } from "./task-progress.ts";

/** Daily check-in (spec §3 Check-in info / Sign result, §4 Check-in, §9). Days are 'YYYY-MM-DD' in the business time zone. */

/** signRewardType 0: beans; any other type: a time card of signRewardNumber seconds. */
export const SIGN_REWARD_BEANS = 0;
/** The members' multiplier (spec §1: members receive a double check-in reward). */
export const MEMBER_TIMES = 2;
export const CHECKIN_LEDGER_REASON = "checkin";

/**
 * allSignDay: days signed in the current month; todaySign: signed today; rewardContentList: the
 * calendar's reward of the n-th signed day, n = 1..days in this month. The grid starts afresh on the
 * 1st; a missed day is not filled in later.
 */
type Ctx = Pick<DomainContext, "db" | "clock" | "config" | "events">;

export async function signInfo(ctx: Ctx, userId: number): Promise<CheckInInfo> {
  const { db } = ctx;
  const m = businessMonth(ctx.clock.now(), ctx.config.BUSINESS_TZ);
  const [allSignDay, today, rewards] = await Promise.all([
    db.signDay.count({ where: { userId, day: { gte: m.first, lte: m.last } } }),
    db.signDay.findUnique({ where: { userId_day: { userId, day: m.today } }, select: { id: true } }),
    db.signReward.findMany({ where: { day: { lte: m.daysInMonth } }, orderBy: { day: "asc" } }),
  ]);
  return {
    allSignDay,
    nowMonth: m.month,
    todaySign: today !== null,
    rewardContentList: rewards.map((r) => ({
      day: r.day,
      signRewardNumber: r.signRewardNumber,
      signRewardType: r.signRewardType,
      rewardPicPath: r.rewardPicPath,
    })),
  };
}

interface SignedRow {
  signRewardNumber: number;
  signRewardType: number;
  memberTimes: number;
}

/**
 * Signs today, exactly once per user and day: the sign_days row (unique (userId, day)) is the
 * proof, and the reward — the calendar's reward of the day after this month's signed days, times 2
 * for members — is granted in the same transaction under the same day's key (bean ledger
 * ('checkin', day) or time card ('checkin', day), valid 90 days). The daily task 'checkin' and the
 * challenge 'checkin_days' advance with it. A second call the same day answers signCheck 2 with
 * today's reward and changes nothing. A success announces "user.changed" (the balance moved).
 */
export async function sign(ctx: Ctx, userId: number): Promise<SignResult> {
  const now = ctx.clock.now();
  const m = businessMonth(now, ctx.config.BUSINESS_TZ);
  return transact(ctx, async (tx, after) => {
    // A user's check-ins take turns on the user's row (bean postings take the same lock), so the
    // next statement, which starts after the lock is held, counts every check-in committed before.
    const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM users WHERE id = ${userId}::int FOR UPDATE`;
    if (locked.length === 0) throw new AppError(StatusCode.NotLoggedIn);

    const [signed] = await tx.$queryRaw<SignedRow[]>`
      INSERT INTO sign_days ("userId", day, "signRewardNumber", "signRewardType", "memberTimes", "createdAt")
      SELECT u.id, ${m.today}::text,
             COALESCE(r."signRewardNumber", 0), COALESCE(r."signRewardType", ${SIGN_REWARD_BEANS}::int),
             CASE WHEN u."memberEffectiveTime" > ${now}::timestamp(3) THEN ${MEMBER_TIMES}::int ELSE 1 END,
             ${now}::timestamp(3)
      FROM users u
      LEFT JOIN sign_rewards r ON r.day = 1 + (
        SELECT count(*) FROM sign_days s
        WHERE s."userId" = u.id AND s.day BETWEEN ${m.first}::text AND ${m.last}::text)
      WHERE u.id = ${userId}::int
      ON CONFLICT ("userId", day) DO NOTHING
      RETURNING "signRewardNumber", "signRewardType", "memberTimes"`;

    if (!signed) {
      const earlier = await tx.signDay.findUniqueOrThrow({ where: { userId_day: { userId, day: m.today } } });
      return {
        signCheck: SignCheck.AlreadySigned,
        signRewardNumber: earlier.signRewardNumber,
        signRewardType: earlier.signRewardType,
        memberTimes: earlier.memberTimes,
      };
    }

    const amount = signed.signRewardNumber * signed.memberTimes;
    if (amount > 0 && signed.signRewardType === SIGN_REWARD_BEANS) {
      await grantBeans(tx, userId, amount, CHECKIN_LEDGER_REASON, m.today);
    } else if (amount > 0) {
      await grantTimeCard(tx, {
        userId,
        seconds: amount,
        validSeconds: CARD_VALIDITY.checkin,
        source: "checkin",
        refId: m.today,
        now,
      });
    }
    await advanceTasks(tx, userId, ["checkin", "checkin_days"], 1, m.today);
    after.publish({ type: "user.changed", userId });
    return { signCheck: SignCheck.Success, ...signed };
  });
}
