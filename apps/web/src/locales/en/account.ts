import type { account as zh } from "../zh/account.ts";

export const account: typeof zh = {
  personal: {
    title: "Personal center",
    coinDetail: "Bean details",
    nickName: "Nickname",
    phone: "Phone",
    inviteCode: "Invite code",
    registeredAt: "Joined",
    menu: "Personal center menu",
    menuProfile: "Profile",
    menuOrders: "My orders",
    menuTimeCards: "My time cards",
  },
  deletion: {
    title: "Account being deleted",
    text: "Your account is scheduled for deletion and will be removed for good on {{date}}. Until then its features are unavailable.",
    continue: "Continue deletion",
    abandon: "Abandon deletion",
    abandoning: "Restoring your account…",
  },
};
