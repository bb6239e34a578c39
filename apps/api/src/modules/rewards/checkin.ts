import { type CheckInInfo, SignCheck, type SignResult, StatusCode } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError } from "../../lib/app-error.ts";
import { businessDay } from "../../lib/time.ts";
import { advanceTasks } from "../tasks/progress.ts";
import { grantBeans } from "../wallet/ledger.ts";
import { CARD_VALIDITY, grantTimeCard } from "../wallet/time-cards.ts";

/** Daily check-in (spec §3 Check-in info / Sign result, §4 Check-in, §9). Days are 'YYYY-MM-DD' in the business time zone. */

/** signRewardType 0: beans; any other type: a time card of signRewardNumber seconds. */
export const SIGN_REWARD_BEANS = 0;
/** The members' multiplier (spec §1: members receive a double check-in reward). */
export const MEMBER_TIMES = 2;
export const CHECKIN_LEDGER_REASON = "checkin";

interface BusinessMonth {
  today: string;
  /** 1–12 */
  month: number;
  daysInMonth: number;
  first: string;
  last: string;
}

export function businessMonth(now: Date, timeZone: string): BusinessMonth {
  const today = businessDay(now, timeZone);
  const [year, month] = today.split("-").map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const prefix = today.slice(0, 8); // 'YYYY-MM-'
  return { today, month, daysInMonth, first: `${prefix}01`, last: `${prefix}${daysInMonth}` };
}

/**
 * allSignDay: days signed in the current month; todaySign: signed today; rewardContentList: the
 * calendar's reward of the n-th signed day, n = 1..days in this month. The grid starts afresh on the
 * 1st; a missed day is not filled in later.
 */
export async function signInfo(db: Db, timeZone: string, userId: number, now = new Date()): Promise<CheckInInfo> {
  const m = businessMonth(now, timeZone);
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
 * today's reward and changes nothing. Writes `users` (beans): the route publishes invalidate.user.
 */
export async function sign(db: Db, timeZone: string, userId: number, now = new Date()): Promise<SignResult> {
  const m = businessMonth(now, timeZone);
  return db.$transaction(async (tx) => {
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
    return { signCheck: SignCheck.Success, ...signed };
  });
}
