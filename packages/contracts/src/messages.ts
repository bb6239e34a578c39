import { z } from "zod";

/** Spec §3 Message. notifyRead 1 read, 0 unread; sendTimeStr 'yyyy-MM-dd HH:mm:ss'. */
export const ZMessage = z.object({
  notifyId: z.number().int(),
  notifyTitle: z.string(),
  notifyText: z.string(),
  notifyRead: z.number().int(),
  senderName: z.string(),
  sendTimeStr: z.string(),
  sendTime: z.number().int(),
});
export const ZUnreadSize = z.object({ unreadSize: z.number().int() });
