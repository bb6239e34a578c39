/** Chinese (the default language): the message centre. */
export const messages = {
  messages: {
    title: "消息中心",
    open: "消息",
    unreadN_one: "{{count}} 条未读消息",
    unreadN_other: "{{count}} 条未读消息",
    onlyUnread: "只看未读",
    markAllRead: "全部已读",
    list: "消息列表",
    empty: "暂无消息",
    emptyUnread: "没有未读消息",
    pick: "选择一条消息查看详情",
    unread: "未读",
    from: "来自 {{sender}}",
    yesterday: "昨天",
  },
};
