import { fakeApi } from "./fake-api.ts";
import { fakeUserInfo } from "./fake-user.ts";

type Handler = Parameters<typeof fakeApi>[0][string];

/**
 * The signed-in shell's calls answered quietly (no deletion, survey done, no gifts, already
 * checked in), so a records test sees its own page only; plus the test's own routes.
 */
export function signedInBackend(routes: Record<string, Handler>) {
  return fakeApi({
    "POST /api/v3/user/delete_account_status": () => ({ status: 0, deleteTime: 0, purgeTime: 0 }),
    "GET /api/v1/user/info": () => fakeUserInfo(),
    "GET /api/v1/user/storage_info": () => ({
      timeUsedToday: 0,
      timeLimitToday: 36000,
      timeUsed: 0,
      timeLimit: 10800,
      auth: 0,
    }),
    "POST /api/v1/store/get_asset": () => ({ allTimeCard: 10800, allCoinNumber: 0 }),
    "POST /notify/get_unread_size": () => ({ unreadSize: 0 }),
    "POST /api/v1/store/sign_info": () => ({ allSignDay: 1, nowMonth: 1, todaySign: true, rewardContentList: [] }),
    "GET /api/v2/menu/sound_list": () => [],
    "GET /api/v1/hotWords": () => ({ hotWords: [] }),
    // every language ready: a Chinese UI preselects Chinese (tests of other states give their own)
    "GET /api/v1/dictation/configuration": () => ({
      languages: [
        { value: "zh", label: "中文", available: true, state: "ready", engine: "sherpa" },
        { value: "en", label: "英文", available: true, state: "ready", engine: "moonshine" },
        { value: "auto", label: "自动识别", available: true, state: "ready", engine: "sherpa" },
      ],
      maxSpeakers: 10,
      maxSeconds: 10800,
    }),
    ...routes,
  });
}

export function record(over: Record<string, unknown> = {}) {
  const fileId = (over.fileId as number) ?? 1;
  return {
    fileId,
    fileName: `录音${fileId}.mp3`,
    fileStatus: 2,
    timeLen: 125,
    updateTime: 1_735_787_045,
    createTime: 1_735_700_645,
    format: "mp3",
    fileSize: 1_572_864,
    sampleRate: 16000,
    audioPath: `/voice_yuelu/api/v3/audio/download?fileId=${fileId}&inline=1`,
    progress: 100,
    menuId: null,
    ...over,
  };
}
