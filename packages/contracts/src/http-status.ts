import { StatusCode } from "./codes.ts";

/**
 * The HTTP status each catalogue code stands for, for the APIs that answer with HTTP statuses rather
 * than the /voice_yuelu envelope (which keeps HTTP 200 for business refusals: the SPA reads
 * `status_code`). `/v1` (OpenAI's error shape) uses it; the codes themselves are the same catalogue.
 * Written out for every code, so a new code must say what it means over plain HTTP.
 */
export const CODE_HTTP_STATUS: Record<StatusCode, number> = {
  [StatusCode.Success]: 200,
  [StatusCode.NotLoggedIn]: 401,
  [StatusCode.InvalidParams]: 400,
  [StatusCode.TooManyRequests]: 429,
  [StatusCode.SmsCodeInvalid]: 400,
  [StatusCode.LoginFailed]: 401,
  [StatusCode.UserDeleted]: 403,
  [StatusCode.AccessDenied]: 403,
  [StatusCode.ChallengeRequired]: 429,
  // the time cards are used up: buy more (OpenAI answers its own billing quota with 429, we say 402)
  [StatusCode.StorageQuotaExceeded]: 402,
  [StatusCode.FileSaveFailed]: 500,
  [StatusCode.FileNotFound]: 404,
  [StatusCode.FileUploadFailed]: 400,
  [StatusCode.RecordNotFound]: 404,
  // an edit based on an older version of the transcript: reload, then edit
  [StatusCode.TranscriptChanged]: 409,
  [StatusCode.TranscriptionFailed]: 500,
  [StatusCode.SynthesisFailed]: 500,
  [StatusCode.VoiceSampleRejected]: 400,
  [StatusCode.VoiceWorkFailed]: 500,
  [StatusCode.NoteFailed]: 500,
  [StatusCode.AudioTooLong]: 400,
  // daily caps: they open again tomorrow
  [StatusCode.DailyQuotaExceeded]: 429,
  [StatusCode.TtsQuotaExceeded]: 429,
  [StatusCode.VoiceQuotaExceeded]: 429,
  [StatusCode.LlmBudgetExceeded]: 429,
  [StatusCode.MyVoiceLimit]: 403,
  [StatusCode.ApiKeyLimit]: 403,
  [StatusCode.WebhookLimit]: 403,
  [StatusCode.NotEnoughBeans]: 402,
  [StatusCode.GoodsNotFound]: 404,
  [StatusCode.OrderNotFound]: 404,
  [StatusCode.GiftCodeInvalid]: 400,
  [StatusCode.GiftCodeUsed]: 409,
  [StatusCode.RewardNotClaimable]: 409,
  [StatusCode.AlreadySigned]: 409,
  [StatusCode.OrderNotPayable]: 409,
  [StatusCode.GiftCodeRedeemed]: 409,
  [StatusCode.PaymentUnavailable]: 503,
  [StatusCode.BeanBalanceFull]: 409,
  // the engine for this language or voice is not installed or not ready on this server
  [StatusCode.EngineUnavailable]: 503,
  [StatusCode.LlmNotConfigured]: 503,
  [StatusCode.Silent]: 403,
  [StatusCode.SystemError]: 500,
  [StatusCode.MembershipExpired]: 403,
};

/**
 * The HTTP status of a code: the catalogue's, else the code itself when it already is one (the error
 * handler reports 404, 413, 415 as codes), else 500.
 */
export function httpStatusOfCode(code: number): number {
  const mapped = (CODE_HTTP_STATUS as Record<number, number | undefined>)[code];
  if (mapped !== undefined) return mapped;
  return code >= 400 && code < 600 ? code : 500;
}
