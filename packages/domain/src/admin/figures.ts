import type { AdminDayFigures, AdminFigures, AdminFiguresQuery } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { businessDay } from "../time.ts";
import { addDays, assertDay, dayStartUtc, daysBetween, nextDay } from "./days.ts";

/** The most days one figures call covers. */
export const FIGURES_MAX_DAYS = 366;

interface FiguresSqlRow {
  day: string;
  sign_ups: bigint;
  seconds_transcribed: bigint;
  paid_fen: bigint;
  refunded_fen: bigint;
  beans_issued: bigint;
  beans_spent: bigint;
}

/**
 * Daily figures for `from`–`to` (both included; default the last 30 days up to today) in the
 * business time zone, one row per day, zero-filled, each computed in SQL: sign-ups, audio minutes of
 * the transcriptions completed, money (paid orders by payment day, refunds by refund day, in fen),
 * and beans issued and spent (the ledger's positive and negative sums).
 */
export async function dailyFigures(
  ctx: Pick<DomainContext, "db" | "clock" | "config">,
  q: AdminFiguresQuery,
): Promise<AdminFigures> {
  assertDay("from", q.from);
  assertDay("to", q.to);
  const tz = ctx.config.BUSINESS_TZ;
  const to = q.to ?? businessDay(ctx.clock.now(), tz);
  const from = q.from ?? addDays(to, -29);
  const span = daysBetween(from, to);
  if (span < 0) throw AppError.invalid("from", "invalid value");
  if (span >= FIGURES_MAX_DAYS) throw AppError.invalid("from", `at most ${FIGURES_MAX_DAYS}`);
  const start = dayStartUtc(from, tz);
  const end = dayStartUtc(nextDay(to), tz);
  // Timestamps are stored as UTC without a zone: AT TIME ZONE 'UTC' makes them instants, and the
  // second AT TIME ZONE reads them on the business zone's wall clock.
  const rows = await ctx.db.$queryRaw<FiguresSqlRow[]>`
    WITH days AS (
      SELECT to_char(d, 'YYYY-MM-DD') AS day FROM generate_series(${from}::date, ${to}::date, interval '1 day') d
    ),
    sign_ups AS (
      SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day, count(*) AS n
      FROM users WHERE "createdAt" >= ${start} AND "createdAt" < ${end} GROUP BY 1
    ),
    transcribed AS (
      SELECT to_char((t."finishedAt" AT TIME ZONE 'UTC') AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day,
             sum(r."timeLen") AS seconds
      FROM transcription_tasks t JOIN audio_records r ON r."fileId" = t."fileId"
      WHERE t.status = 2 AND t."finishedAt" >= ${start} AND t."finishedAt" < ${end} GROUP BY 1
    ),
    paid AS (
      SELECT to_char(("paidAt" AT TIME ZONE 'UTC') AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day, sum("amountFen") AS fen
      FROM orders WHERE "grantedAt" IS NOT NULL AND "paidAt" >= ${start} AND "paidAt" < ${end} GROUP BY 1
    ),
    refunded AS (
      SELECT to_char(("refundedAt" AT TIME ZONE 'UTC') AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day, sum("amountFen") AS fen
      FROM orders WHERE "refundedAt" >= ${start} AND "refundedAt" < ${end} GROUP BY 1
    ),
    beans AS (
      SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day,
             sum(amount) FILTER (WHERE amount > 0) AS issued, -sum(amount) FILTER (WHERE amount < 0) AS spent
      FROM bean_ledger WHERE "createdAt" >= ${start} AND "createdAt" < ${end} GROUP BY 1
    )
    SELECT days.day,
           COALESCE(sign_ups.n, 0)::bigint AS sign_ups,
           COALESCE(transcribed.seconds, 0)::bigint AS seconds_transcribed,
           COALESCE(paid.fen, 0)::bigint AS paid_fen,
           COALESCE(refunded.fen, 0)::bigint AS refunded_fen,
           COALESCE(beans.issued, 0)::bigint AS beans_issued,
           COALESCE(beans.spent, 0)::bigint AS beans_spent
    FROM days
    LEFT JOIN sign_ups USING (day)
    LEFT JOIN transcribed USING (day)
    LEFT JOIN paid USING (day)
    LEFT JOIN refunded USING (day)
    LEFT JOIN beans USING (day)
    ORDER BY days.day`;
  const days: AdminDayFigures[] = rows.map((r) => {
    const paidFen = Number(r.paid_fen);
    const refundedFen = Number(r.refunded_fen);
    return {
      day: r.day,
      signUps: Number(r.sign_ups),
      minutesTranscribed: Math.floor(Number(r.seconds_transcribed) / 60),
      paidFen,
      refundedFen,
      revenueFen: paidFen - refundedFen,
      beansIssued: Number(r.beans_issued),
      beansSpent: Number(r.beans_spent),
    };
  });
  const totals = {
    signUps: 0,
    minutesTranscribed: 0,
    paidFen: 0,
    refundedFen: 0,
    revenueFen: 0,
    beansIssued: 0,
    beansSpent: 0,
  };
  for (const d of days) {
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += d[key];
  }
  return { timeZone: tz, from, to, days, totals };
}
