/** Chinese (the default language): the identity survey and the welcome gifts. */
export const onboarding = {
  survey: {
    title: "欢迎来到悦录",
    step1: "你的身份是？",
    step2: "你是从哪里了解到悦录的？",
    stepOf: "第 {{step}} / 2 步",
  },
  gifts: {
    title: "欢迎礼包已到账",
    newUserTitle: "新人礼包",
    newUserText: "恭喜获得 3 小时转写时长卡，已放入你的账户",
    inviteTitle: "邀请礼包",
    inviteText: "恭喜获得 5 小时转写时长卡，感谢好友的邀请",
    blackCardTitle: "30 天会员体验",
    blackCardText: "已为你开通 30 天黑卡会员，签到奖励翻倍",
    happyToAccept: "开心收下",
  },
};
