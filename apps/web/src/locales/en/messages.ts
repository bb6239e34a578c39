import type { messages as zh } from "../zh/messages.ts";

export const messages: typeof zh = {
  messages: {
    title: "Messages",
    open: "Messages",
    unreadN_one: "{{count}} unread message",
    unreadN_other: "{{count}} unread messages",
    onlyUnread: "Unread only",
    markAllRead: "Mark all read",
    list: "Message list",
    empty: "No messages yet",
    emptyUnread: "No unread messages",
    pick: "Pick a message to read it",
    unread: "Unread",
    from: "From {{sender}}",
    yesterday: "Yesterday",
  },
};
