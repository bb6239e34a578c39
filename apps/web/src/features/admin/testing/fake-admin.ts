import type {
  AdminFailedJob,
  AdminFeedback,
  AdminFigures,
  AdminGiftCode,
  AdminHelpDoc,
  AdminMe,
  AdminOrderDetail,
  AdminPage,
  AdminQueues,
  AdminUserRow,
  AdminVersion,
  WebhookDelivery,
  WebhookEndpoint,
} from "@yuelu/contracts";

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

/** One page of rows, as every console list answers. */
export function page<T>(items: T[], over: Partial<AdminPage<T>> = {}): AdminPage<T> {
  return { items, total: items.length, page: 1, pageSize: 20, ...over };
}

/** A paid, granted yearly plan (¥336), not refunded. */
export function orderDetail(over: Partial<AdminOrderDetail> = {}): AdminOrderDetail {
  return {
    orderNumber: "YL202611250001",
    userId: 7,
    phone: "13800000007",
    goodsId: 9,
    goodsName: "年度会员",
    goodsType: 1,
    amountFen: 33_600,
    tradeStatus: 1,
    provider: "mock-alipay",
    providerTradeNo: "2026112522001",
    createdAt: "2026-11-25T08:00:00.000Z",
    paidAt: "2026-11-25T08:01:00.000Z",
    grantedAt: "2026-11-25T08:01:00.000Z",
    closedAt: null,
    closeReason: null,
    refundedAt: null,
    refundReason: "",
    memberDays: 365,
    duration: 0,
    attempt: 1,
    expiresAt: "2026-11-25T08:15:00.000Z",
    scannedAt: "2026-11-25T08:00:30.000Z",
    queriedAt: null,
    card: null,
    notifications: [],
    ...over,
  };
}

export function giftCode(over: Partial<AdminGiftCode> & Pick<AdminGiftCode, "id" | "packCode">): AdminGiftCode {
  return {
    batch: "spring",
    rewardType: 1,
    rewardNumber: 50,
    kind: "beans",
    reward: 50,
    maxRedemptions: 3,
    redeemedCount: 0,
    expiresAt: null,
    disabledAt: null,
    createdAt: "2026-11-20T08:00:00.000Z",
    status: "active",
    ...over,
  };
}

export function failedJob(over: Partial<AdminFailedJob> & Pick<AdminFailedJob, "id">): AdminFailedJob {
  return {
    queue: "transcription",
    name: "transcribe",
    failedReason: "engine crashed",
    attemptsMade: 3,
    attempts: 3,
    data: { recordId: 5 },
    createdAt: "2026-11-25T07:00:00.000Z",
    processedAt: "2026-11-25T07:00:01.000Z",
    failedAt: "2026-11-25T07:05:00.000Z",
    ...over,
  };
}

export function helpDoc(over: Partial<AdminHelpDoc> = {}): AdminHelpDoc {
  return {
    id: 3,
    slug: "quota",
    title: "时长与额度说明",
    titleEn: "Time and quotas",
    content: "转写会消耗时长卡中的时长。",
    contentEn: "Transcription uses time from your duration cards.",
    sort: 3,
    ...over,
  };
}

export function feedback(over: Partial<AdminFeedback> = {}): AdminFeedback {
  return {
    id: 11,
    userId: 7,
    phone: "13800000007",
    nickName: "用户7",
    categoryId: 22,
    category: "问题反馈 / 上传失败",
    content: "上传 2GB 的文件失败了",
    contact: "me@example.com",
    images: [],
    createdAt: "2026-11-25T08:00:00.000Z",
    handledAt: null,
    reply: "",
    ...over,
  };
}

export function webhookEndpoint(over: Partial<WebhookEndpoint> & Pick<WebhookEndpoint, "id">): WebhookEndpoint {
  return {
    url: `https://hooks.example.com/yuelu/${over.id}`,
    description: "",
    events: ["transcription.finished", "order.paid"],
    enabled: true,
    createTime: 1_795_000_000,
    updateTime: 1_795_000_000,
    ...over,
  };
}

/** A delivery that failed once (HTTP 500) and then arrived (HTTP 200). */
export function webhookDelivery(over: Partial<WebhookDelivery> & Pick<WebhookDelivery, "id">): WebhookDelivery {
  return {
    endpointId: 1,
    messageId: `msg_${over.id}`,
    eventType: "order.paid",
    status: "delivered",
    attempts: 2,
    nextAttemptTime: 0,
    lastStatusCode: 200,
    lastError: "",
    createTime: 1_795_000_100,
    finishTime: 1_795_000_160,
    payload: { type: "order.paid", data: { orderNumber: "YL1" } },
    attemptList: [
      { attempt: 2, time: 1_795_000_160, durationMs: 85, statusCode: 200, responseBody: "ok", error: "" },
      { attempt: 1, time: 1_795_000_100, durationMs: 1234, statusCode: 500, responseBody: "boom", error: "" },
    ],
    ...over,
  };
}
