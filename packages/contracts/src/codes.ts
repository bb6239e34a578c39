import { AUDIO_TOO_LONG_WORDS } from "./server-messages.ts";

/**
 * Status codes of the `/voice_yuelu` envelope. Spec §8 fixes the first block; the spec leaves the
 * store, reward, message and account codes open ("not shown"), so those below are ours.
 */
export const StatusCode = {
  Success: 1,
  NotLoggedIn: 10001,
  InvalidParams: 10002,
  TooManyRequests: 10003,
  SmsCodeInvalid: 10004,
  LoginFailed: 10005,
  UserDeleted: 10006,
  AccessDenied: 10007,
  /** ours (docs/account.md): this address sent many codes lately; solve the proof-of-work challenge first */
  ChallengeRequired: 10008,
  StorageQuotaExceeded: 20001,
  FileSaveFailed: 20002,
  FileNotFound: 20003,
  FileUploadFailed: 20004,
  RecordNotFound: 30001,
  /**
   * ours (docs/records-api.md "Transcript"): an edit based on a transcript version that is no longer the
   * current one (another tab or device changed it meanwhile); nothing was written
   */
  TranscriptChanged: 30002,
  TranscriptionFailed: 40001,
  /** ours (docs/tts.md): a text-to-speech task or voice sample failed */
  SynthesisFailed: 40002,
  /** a voice sample was not accepted (too short, quiet, clipped, noisy, no speech, several speakers) */
  VoiceSampleRejected: 40003,
  /** a sung or converted song could not be made */
  VoiceWorkFailed: 40004,
  /** ours (docs/notes.md): an AI note (chapters, summary, translation, answer) could not be made */
  NoteFailed: 40005,
  AudioTooLong: 50001,
  DailyQuotaExceeded: 50002,
  /** ours (docs/tts.md): today's text-to-speech characters are used up */
  TtsQuotaExceeded: 50003,
  /** the day's voice works (trained voices, sung and converted songs) are used up */
  VoiceQuotaExceeded: 50004,
  /** a user keeps at most MY_VOICE_MAX_COUNT voices */
  MyVoiceLimit: 50005,
  /** a user keeps at most API_KEYS_MAX live API keys */
  ApiKeyLimit: 50006,
  /** a user keeps at most WEBHOOKS_MAX webhook endpoints (operators: as many operator-wide ones) */
  WebhookLimit: 50007,
  /** today's LLM tokens (LLM_DAILY_TOKENS, members LLM_DAILY_TOKENS_MEMBER) are used up */
  LlmBudgetExceeded: 50008,
  NotEnoughBeans: 60001,
  GoodsNotFound: 60002,
  OrderNotFound: 60003,
  GiftCodeInvalid: 60004,
  GiftCodeUsed: 60005,
  RewardNotClaimable: 60006,
  AlreadySigned: 60007,
  OrderNotPayable: 60008,
  GiftCodeRedeemed: 60009,
  /** ours (docs/commerce.md): this install has no payment provider set up (PAYMENT_PROVIDER=none) */
  PaymentUnavailable: 60010,
  /** ours (docs/engagement.md): the bean balance would pass BEAN_BALANCE_MAX */
  BeanBalanceFull: 60011,
  EngineUnavailable: 70001,
  /** ours (docs/notes.md): this needs a language model and the server has none (LLM_URL unset) */
  LlmNotConfigured: 70002,
  Silent: 80000,
  SystemError: 99999,
  MembershipExpired: 2200001,
} as const;

export type StatusCode = (typeof StatusCode)[keyof typeof StatusCode];

export type Lang = "zh" | "en";
export const LANGS: readonly Lang[] = ["zh", "en"];
export const DEFAULT_LANG: Lang = "zh";

/** `{field}` and other `{name}` placeholders are filled from the error's params. */
export const statusMessages: Record<StatusCode, Record<Lang, string>> = {
  [StatusCode.Success]: { zh: "success", en: "success" },
  [StatusCode.NotLoggedIn]: { zh: "未登录，请先登录", en: "Not signed in. Please sign in first." },
  [StatusCode.InvalidParams]: { zh: "缺少必要参数或参数错误：{field}", en: "Missing or invalid parameter: {field}" },
  [StatusCode.TooManyRequests]: { zh: "操作过于频繁，请稍后再试", en: "Too many requests. Please try again later." },
  [StatusCode.SmsCodeInvalid]: { zh: "验证码错误或已过期", en: "The verification code is wrong or has expired." },
  [StatusCode.LoginFailed]: { zh: "手机号或密码错误", en: "Wrong phone number or password." },
  [StatusCode.UserDeleted]: { zh: "用户已注销", en: "This account has been deleted." },
  [StatusCode.AccessDenied]: { zh: "无权访问", en: "Access denied." },
  [StatusCode.ChallengeRequired]: {
    zh: "请先完成安全验证后再获取验证码",
    en: "Please complete the security check before requesting a code.",
  },
  [StatusCode.StorageQuotaExceeded]: { zh: "存储额度不足", en: "Not enough transcription time left." },
  [StatusCode.FileSaveFailed]: { zh: "保存文件失败", en: "Saving the file failed." },
  [StatusCode.FileNotFound]: { zh: "文件不存在", en: "File not found." },
  [StatusCode.FileUploadFailed]: { zh: "文件上传失败", en: "File upload failed." },
  [StatusCode.RecordNotFound]: { zh: "记录不存在", en: "Record not found." },
  [StatusCode.TranscriptChanged]: {
    zh: "这份转写已在其他标签页或设备上修改，请重新载入后再编辑",
    en: "This transcript was changed in another tab or on another device. Reload it before editing.",
  },
  [StatusCode.TranscriptionFailed]: { zh: "转写失败", en: "Transcription failed." },
  [StatusCode.SynthesisFailed]: { zh: "语音合成失败：{detail}", en: "Speech synthesis failed: {detail}" },
  [StatusCode.VoiceSampleRejected]: {
    zh: "声音样本不合格：{detail}",
    en: "The voice sample was not accepted: {detail}",
  },
  [StatusCode.VoiceWorkFailed]: { zh: "作品生成失败：{detail}", en: "The work could not be made: {detail}" },
  [StatusCode.AudioTooLong]: AUDIO_TOO_LONG_WORDS,
  [StatusCode.DailyQuotaExceeded]: {
    zh: "今日转写额度已用完，请明天再来",
    en: "Today's transcription quota is used up. Please come back tomorrow.",
  },
  [StatusCode.TtsQuotaExceeded]: {
    zh: "今日语音合成字数已用完（每日 {limit} 字），请明天再来",
    en: "Today's text-to-speech characters are used up ({limit} a day). Please come back tomorrow.",
  },
  [StatusCode.VoiceQuotaExceeded]: {
    zh: "今日声音作品次数已用完（每日 {limit} 次），请明天再来",
    en: "Today's voice works are used up ({limit} a day). Please come back tomorrow.",
  },
  [StatusCode.MyVoiceLimit]: {
    zh: "最多保存 {limit} 个我的声音，请先删除不用的声音",
    en: "You can keep at most {limit} voices. Delete one you no longer use first.",
  },
  [StatusCode.ApiKeyLimit]: {
    zh: "最多保留 {limit} 个 API 密钥，请先撤销不用的密钥",
    en: "You can keep at most {limit} API keys. Revoke one you no longer use first.",
  },
  [StatusCode.WebhookLimit]: {
    zh: "最多保留 {limit} 个 Webhook 地址，请先删除不用的地址",
    en: "You can keep at most {limit} webhook endpoints. Delete one you no longer use first.",
  },
  [StatusCode.NoteFailed]: { zh: "AI 笔记生成失败：{detail}", en: "The AI note could not be made: {detail}" },
  [StatusCode.LlmBudgetExceeded]: {
    zh: "今日 AI 额度已用完（{limit} tokens），明天再来吧",
    en: "Today's AI allowance ({limit} tokens) is used up. It renews tomorrow.",
  },
  [StatusCode.LlmNotConfigured]: {
    // users' words: what to set (LLM_URL, LLM_MODEL) is the operator's, in the console and docs/notes.md
    zh: "本站 AI 功能未开启，请联系站点管理员",
    en: "AI features are off on this site. Please contact the site administrator.",
  },
  [StatusCode.NotEnoughBeans]: { zh: "悦豆不足", en: "Not enough beans." },
  [StatusCode.GoodsNotFound]: { zh: "商品不存在或已下架", en: "This item does not exist or is no longer sold." },
  [StatusCode.OrderNotFound]: { zh: "订单不存在", en: "Order not found." },
  [StatusCode.GiftCodeInvalid]: { zh: "兑换码无效或已过期", en: "This redeem code is invalid or has expired." },
  [StatusCode.GiftCodeUsed]: { zh: "兑换码已被领完", en: "This redeem code has been used up." },
  [StatusCode.RewardNotClaimable]: { zh: "暂无可领取的奖励", en: "No reward to claim." },
  [StatusCode.AlreadySigned]: { zh: "今日已签到", en: "Already signed in today." },
  [StatusCode.GiftCodeRedeemed]: { zh: "您已兑换过该兑换码", en: "You have already redeemed this code." },
  [StatusCode.PaymentUnavailable]: {
    zh: "本站尚未开通在线支付，请联系管理员",
    en: "Online payment is not set up on this server: please contact the operator.",
  },
  [StatusCode.BeanBalanceFull]: {
    zh: "悦豆余额已达上限，无法再增加",
    en: "Your bean balance is at its limit: no more beans can be added.",
  },
  [StatusCode.OrderNotPayable]: {
    zh: "订单已关闭或已支付，无法再次支付",
    en: "This order is closed or already paid: it cannot be paid again.",
  },
  [StatusCode.EngineUnavailable]: { zh: "服务引擎不可用：{detail}", en: "The engine is not available: {detail}" },
  [StatusCode.Silent]: { zh: "请求已拒绝", en: "Request rejected." },
  [StatusCode.SystemError]: { zh: "系统错误", en: "System error." },
  [StatusCode.MembershipExpired]: { zh: "会员已过期", en: "Your membership has expired." },
};

/** Spec §8 client texts for HTTP statuses. */
export const httpStatusMessages: Record<number, Record<Lang, string>> = {
  400: { zh: "错误请求", en: "Bad request" },
  401: { zh: "未授权，请登录", en: "Unauthorized, please sign in" },
  403: { zh: "拒绝访问", en: "Access denied" },
  404: { zh: "请求地址出错: {url}", en: "Request address error: {url}" },
  408: { zh: "请求超时", en: "Request timed out" },
  413: { zh: "文件过大", en: "The file is too large" },
  429: { zh: "操作过于频繁，请稍后再试", en: "Too many requests. Please try again later." },
  500: { zh: "服务器内部错误", en: "Internal server error" },
  501: { zh: "服务未实现", en: "Not implemented" },
  502: { zh: "网关错误", en: "Bad gateway" },
  503: { zh: "服务不可用", en: "Service unavailable" },
  504: { zh: "网关超时", en: "Gateway timeout" },
  505: { zh: "HTTP版本不受支持", en: "HTTP version not supported" },
};

export function parseLang(value: unknown): Lang | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.toLowerCase();
  if (v === "en" || v.startsWith("en-") || v.startsWith("en_")) return "en";
  if (v === "zh" || v.startsWith("zh-") || v.startsWith("zh_") || v === "cn") return "zh";
  return undefined;
}

export function fillTemplate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function statusMessage(code: number, lang: Lang, params?: Record<string, string | number>): string {
  const entry = statusMessages[code as StatusCode] ?? statusMessages[StatusCode.SystemError];
  return fillTemplate(entry[lang], params);
}
