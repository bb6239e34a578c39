/** Chinese (the default language): the reward dialog's check-in. */
export const checkin = {
  checkin: {
    title: "每日签到",
    signed: "已签到",
    memberDouble: "会员双倍",
    signIn: "签到",
    alreadySigned: "今日已签到",
    failed: "签到失败，请稍后再试",
    dayN: "第{{day}}天",
    beansN_one: "{{count}} 悦豆",
    beansN_other: "{{count}} 悦豆",
    beansWord_one: "悦豆",
    beansWord_other: "悦豆",
    rewardTitle: "签到成功",
    monthProgress_one: "本月已签到 {{count}} 天",
    monthProgress_other: "本月已签到 {{count}} 天",
    offerText: "每天签到，领悦豆和转写时长",
    offerGo: "去签到",
  },
};
