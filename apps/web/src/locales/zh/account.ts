/** Chinese (the default language): the personal centre, account deletion. */
export const account = {
  personal: {
    title: "个人中心",
    coinDetail: "悦豆明细",
    nickName: "昵称",
    phone: "手机号",
    inviteCode: "邀请码",
    registeredAt: "注册时间",
    menu: "个人中心菜单",
    menuProfile: "个人资料",
    menuOrders: "我的订单",
    menuTimeCards: "我的时长卡",
  },
  deletion: {
    title: "账号注销中",
    text: "你的账号已申请注销，将于 {{date}} 彻底删除。注销期间无法使用各项功能。",
    continue: "继续注销",
    abandon: "放弃注销",
    abandoning: "正在恢复账号…",
  },
};
