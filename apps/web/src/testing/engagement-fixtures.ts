import type { Message, ShopGoods, Task } from "@yuelu/contracts";
import { type FakeCall, fakeApi } from "./fake-api.ts";
import { fakeUserInfo } from "./fake-user.ts";

type Handler = (call: FakeCall) => unknown;

/**
 * A signed-in account for the engagement tests (shop, rewards, messages, help, personal centre):
 * the shell's calls answered quietly (no deletion, survey done, no gifts, already checked in), a
 * bean balance and an unread count the test chooses, plus the test's own routes.
 */
export function engagementBackend(
  routes: Record<string, Handler> = {},
  { beans = 700, unread = 0, member = false }: { beans?: number; unread?: number; member?: boolean } = {},
) {
  return fakeApi({
    "POST /api/v3/user/delete_account_status": () => ({ status: 0, deleteTime: 0, purgeTime: 0 }),
    "GET /api/v1/user/info": () => fakeUserInfo({ isMember: member, memberEffectiveTime: member ? 1_900_000_000 : 0 }),
    "GET /api/v1/user/storage_info": () => ({
      timeUsedToday: 0,
      timeLimitToday: 36000,
      timeUsed: 0,
      timeLimit: 10800,
      auth: 0,
    }),
    "POST /api/v1/store/get_asset": () => ({ allTimeCard: 10800, allCoinNumber: beans }),
    "POST /notify/get_unread_size": () => ({ unreadSize: unread }),
    "POST /api/v1/store/sign_info": () => ({ allSignDay: 1, nowMonth: 1, todaySign: true, rewardContentList: [] }),
    "GET /api/v2/menu/sound_list": () => [],
    "GET /api/v3/audio/all_list": () => ({ total: 0, records: [] }),
    "GET /api/v1/hotWords": () => ({ hotWords: [] }),
    "GET /api/v1/dictation/configuration": () => ({ languages: [], maxSpeakers: 10, maxSeconds: 10800 }),
    ...routes,
  });
}

export function shopGoods(over: Partial<ShopGoods> & Pick<ShopGoods, "goodsId">): ShopGoods {
  return {
    goodsName: `${over.goodsId}号商品`,
    goodsIntroduce: "兑换后3个月内有效，可用于音视频转文字",
    goodsPicPath: "",
    duration: 1800,
    effectiveTime: 90 * 86400,
    originalCoin: 300,
    exchangeCoin: 300,
    discount: false,
    ...over,
  };
}

export function task(over: Partial<Task> & Pick<Task, "challengeId">): Task {
  return {
    challengeName: `任务${over.challengeId}`,
    challengeDesc: "任务说明",
    challengeType: 0,
    progressAmount: 0,
    progressFinish: 1,
    progressStatus: 0,
    rewardType: 0,
    rewardNumber: 10,
    ...over,
  };
}

export function message(over: Partial<Message> & Pick<Message, "notifyId">): Message {
  return {
    notifyTitle: `消息${over.notifyId}`,
    notifyText: `第 ${over.notifyId} 条消息的内容`,
    notifyRead: 0,
    senderName: "悦录",
    sendTimeStr: "2025-01-02 10:00:00",
    sendTime: 1_735_783_200,
    items: [],
    ...over,
  };
}
