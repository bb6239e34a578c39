import type { PayGoodsModel } from "@yuelu/db";
import type { UserMessage } from "../messages/send.ts";
import { isMembership } from "./catalogue.ts";

function day(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

/** The message-centre message of a purchase, in both languages. */
export function purchaseMessage(
  goods: PayGoodsModel,
  at: { memberUntil?: Date; cardUntil: Date; timeZone: string },
): Omit<UserMessage, "sourceRef"> {
  if (isMembership(goods)) {
    const until = day(at.memberUntil ?? at.cardUntil, at.timeZone);
    return {
      title: "会员开通成功",
      text: `您已成功购买「${goods.goodsName}」，会员有效期至 ${until}。`,
      titleEn: "Membership activated",
      textEn: `You bought the ${goods.goodsNameEn}. Your membership is valid until ${until}.`,
    };
  }
  const until = day(at.cardUntil, at.timeZone);
  return {
    title: "时长卡已到账",
    text: `您购买的「${goods.goodsName}」已到账，有效期至 ${until}。`,
    titleEn: "Time card added",
    textEn: `Your ${goods.goodsNameEn} has been added. It is valid until ${until}.`,
  };
}
