import type { AdminFigures, AdminMe, AdminQueues, AdminUserRow, AdminVersion } from "@yuelu/contracts";

/** Fake answers of the admin API for the console's component tests (named as such: fakes live in tests only). */

export function adminMe(over: Partial<AdminMe> = {}): AdminMe {
  return { userId: 42, nickName: "小明", phone: "13800000000", role: "admin", version: "1.2.3", ...over };
}

const day = (date: string, over: Partial<AdminFigures["days"][number]> = {}) => ({
  day: date,
  signUps: 0,
  minutesTranscribed: 0,
  paidFen: 0,
  refundedFen: 0,
  revenueFen: 0,
  beansIssued: 0,
  beansSpent: 0,
  ...over,
});

export function figures(): AdminFigures {
  const days = [
    day("2026-11-23", { signUps: 2, minutesTranscribed: 30, beansIssued: 20 }),
    day("2026-11-24", {
      signUps: 5,
      minutesTranscribed: 12,
      paidFen: 33_600,
      revenueFen: 33_600,
      beansIssued: 50,
      beansSpent: 30,
    }),
    day("2026-11-25", { signUps: 1, refundedFen: 150, revenueFen: -150, beansSpent: 10 }),
  ];
  return {
    timeZone: "Asia/Shanghai",
    from: "2026-11-23",
    to: "2026-11-25",
    days,
    totals: {
      signUps: 8,
      minutesTranscribed: 42,
      paidFen: 33_600,
      refundedFen: 150,
      revenueFen: 33_450,
      beansIssued: 70,
      beansSpent: 40,
    },
  };
}

export function version(): AdminVersion {
  return {
    version: "1.2.3",
    node: "v22.12.0",
    uptimeSeconds: 90_000,
    queueBackend: "postgres",
    fileStore: "local",
    paymentProvider: "mock-alipay",
    businessTimeZone: "Asia/Shanghai",
  };
}

export function queues(): AdminQueues {
  return {
    backend: "postgres",
    queues: [
      { name: "transcription", waiting: 3, active: 1, delayed: 0, failed: 2, completed: 40 },
      { name: "tts", waiting: 0, active: 0, delayed: 0, failed: 0, completed: 5 },
    ],
  };
}

export function userRow(over: Partial<AdminUserRow> & Pick<AdminUserRow, "id">): AdminUserRow {
  return {
    phone: `1380000${String(over.id).padStart(4, "0")}`,
    nickName: `用户${over.id}`,
    role: "user",
    disabledAt: null,
    deleteRequestedAt: null,
    beanBalance: 100,
    memberUntil: null,
    isMember: false,
    lastLoginAt: "2026-11-25T08:00:00.000Z",
    createdAt: "2026-11-20T08:00:00.000Z",
    ...over,
  };
}
