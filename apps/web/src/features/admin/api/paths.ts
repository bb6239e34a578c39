/**
 * The console's calls below /voice_yuelu/admin (apps/api/src/modules/admin/*.ts, docs/admin.md
 * "Calls"), gathered so that one place follows a change of path.
 */
const id = (value: string | number) => encodeURIComponent(String(value));

export const adminPaths = {
  me: "/me",
  audit: "/audit",
  // system
  figures: "/system/figures",
  version: "/system/version",
  queues: "/system/queues",
  engines: "/system/engines",
  failedJobs: "/system/jobs/failed",
  job: (queue: string, jobId: string, action: "retry" | "remove") => `/system/jobs/${id(queue)}/${id(jobId)}/${action}`,
  retryFailed: "/system/jobs/retry-failed",
  storage: "/system/storage",
  // catalogue
  payGoods: "/goods/pay",
  payGoodsItem: (goodsId: number) => `/goods/pay/${id(goodsId)}`,
  payGoodsReorder: "/goods/pay/reorder",
  shopGoods: "/goods/shop",
  shopGoodsItem: (goodsId: number) => `/goods/shop/${id(goodsId)}`,
  shopGoodsReorder: "/goods/shop/reorder",
  // gift codes
  giftBatches: "/gift-codes/batches",
  giftCodes: "/gift-codes",
  giftCodeDisable: (codeId: number) => `/gift-codes/${id(codeId)}/disable`,
  giftCodeRedemptions: (codeId: number) => `/gift-codes/${id(codeId)}/redemptions`,
  giftBatchDisable: "/gift-codes/batches/disable",
  giftExport: "/gift-codes/export",
  // messages
  messages: "/messages",
  // help documents and feedback
  help: "/help",
  helpItem: (docId: number) => `/help/${id(docId)}`,
  feedback: "/feedback",
  feedbackHandle: (feedbackId: number) => `/feedback/${id(feedbackId)}/handle`,
  feedbackReply: (feedbackId: number) => `/feedback/${id(feedbackId)}/reply`,
  // users
  users: "/users",
  user: (userId: number) => `/users/${id(userId)}`,
  userBeans: (userId: number) => `/users/${id(userId)}/beans`,
  userGrants: (userId: number) => `/users/${id(userId)}/grants`,
  userStatus: (userId: number, action: "disable" | "enable") => `/users/${id(userId)}/${action}`,
  // orders
  orders: "/orders",
  order: (orderNumber: string) => `/orders/${id(orderNumber)}`,
  orderAction: (orderNumber: string, action: "requery" | "refund") => `/orders/${id(orderNumber)}/${action}`,
  // operator-wide webhooks
  webhooks: "/webhooks",
  webhookAction: (action: "update" | "delete" | "secret" | "resend" | "test") => `/webhooks/${action}`,
  webhookDeliveries: "/webhooks/deliveries",
} as const;
