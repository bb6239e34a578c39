import type { UserInfo } from "@yuelu/contracts";

/** A signed-in user's info as GET /api/v1/user/info answers it (survey done, no gift to announce). */
export function fakeUserInfo(over: Partial<UserInfo> = {}): UserInfo {
  return {
    userId: 42,
    userPhoto: "",
    nickName: "小明",
    phoneNumber: "138****0000",
    isMember: false,
    memberEffectiveTime: 0,
    infoCollectChannel: "朋友推荐",
    infoCollectIdentity: "学生",
    received: false,
    receiveSuccess: false,
    blackProReceive: false,
    createTime: 1_700_000_000,
    inviteCode: "ABCD2345",
    ...over,
  };
}
