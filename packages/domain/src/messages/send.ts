import type { Tx } from "../transaction.ts";

export interface UserMessage {
  title: string;
  text: string;
  titleEn: string;
  textEn: string;
  /** who it is from, as the message centre shows it */
  sender?: string;
  /** what sent it ('order:<orderNumber>'…): one message per user and ref, however often the event repeats */
  sourceRef: string;
  /** when its event happened (absent: now): a message is dated at its event */
  at?: Date;
}

/**
 * Puts a message in the user's message centre, in the transaction of the event it reports, once per
 * (user, sourceRef). Both languages are stored; the message calls answer the reader's.
 */
export async function sendUserMessage(tx: Tx, userId: number, message: UserMessage): Promise<boolean> {
  const { count } = await tx.notification.createMany({
    data: [
      {
        userId,
        notifyTitle: message.title,
        notifyText: message.text,
        notifyTitleEn: message.titleEn,
        notifyTextEn: message.textEn,
        senderName: message.sender ?? "悦录",
        sourceRef: message.sourceRef,
        ...(message.at ? { sendTime: message.at } : {}),
      },
    ],
    skipDuplicates: true,
  });
  return count === 1;
}
