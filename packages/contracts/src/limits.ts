/**
 * The product's fixed limits (spec §5, §9 and docs/records-api.md). Zod-free: the web app imports
 * them through `@yuelu/contracts/constants` without pulling the schemas into its bundle.
 */

/**
 * The accepted upload extensions: spec §5's 15, then (issue 29) what phones and browsers also make —
 * browser recordings (webm, weba), voice notes (ogg, oga, opus), lossless archives (flac, aiff, caf).
 */
export const UPLOAD_EXTENSIONS = [
  "wav",
  "mp3",
  "m4a",
  "aac",
  "mp4",
  "3gp",
  "mkv",
  "flv",
  "mov",
  "wmv",
  "mxf",
  "avi",
  "amr",
  "wma",
  "m4s",
  "webm",
  "weba",
  "ogg",
  "oga",
  "opus",
  "flac",
  "aiff",
  "caf",
] as const;
export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];
/** Containers the detail page plays in a <video>. */
export const VIDEO_FORMATS: readonly string[] = ["mp4", "3gp", "mkv", "flv", "mov", "wmv", "mxf", "avi", "m4s"];

/** Spec §5: 1 GiB per upload. */
export const MAX_UPLOAD_BYTES = 1_073_741_824;
/** Spec §5: 5 hours per upload (the upload constant). */
export const MAX_UPLOAD_SECONDS = 5 * 3600;
/** Spec §8 50001: 3 hours per transcription (the server's reading of the length limit). */
export const MAX_TRANSCRIBE_SECONDS = 3 * 3600;
/**
 * How far (seconds) the length a media file's header declares may differ from the audio it decodes to
 * before the upload is refused as damaged or edited; also what a decode may run past the length that was
 * charged (a length is charged in whole seconds of what was decoded at upload).
 */
export const MEDIA_LENGTH_TOLERANCE_SECONDS = 3;

/** Longest record name (characters), the extension included. */
export const FILE_NAME_MAX = 100;
/** Folder ('menu') names: 1–20 characters, at most 200 folders per user. */
export const MENU_NAME_MAX = 20;
export const MENU_MAX = 200;
/** How many ids one batch call (move, delete, restore, download) takes. */
export const BATCH_MAX = 500;

export const MAX_SPEAKERS = 10;
export const MAX_DICTATION_FILES = 100;
/** One get_progress call may poll a whole page of records. */
export const MAX_PROGRESS_FILES = 1000;
export const MAX_SEGMENTS = 20_000;
export const MAX_SEGMENT_TEXT = 5_000;
export const MAX_HOT_WORDS = 200;
export const MAX_HOT_WORD_LENGTH = 50;
export const MAX_ABSTRACTS_LENGTH = 20_000;

/** Spec §9: message list and shop page size; the most a list call returns. */
export const PAGE_SIZE_MAX = 9999;

/** Spec §5 speaker rename: Han characters, English letters and digits, at most 10 (code points). */
export const SPEAKER_NAME_MAX = 10;
export const SPEAKER_NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9]+$/u;
/** The worker's default speaker names ('说话人1', 'Speaker 1'); accepted as they are in update_text. */
export const DEFAULT_SPEAKER_NAME_PATTERN = /^(说话人\d{1,4}|Speaker \d{1,4})$/;

export function isValidSpeakerName(name: string): boolean {
  return SPEAKER_NAME_PATTERN.test(name) && [...name].length <= SPEAKER_NAME_MAX;
}

/** The default name of the n-th speaker (0-based) for a reader of `language`: '说话人1' or 'Speaker 1'. */
export function speakerLabel(index: number, language: string): string {
  return language === "zh" ? `说话人${index + 1}` : `Speaker ${index + 1}`;
}

/**
 * A speaker's name as a reader of `lang` sees it: a default label ('说话人2', 'Speaker 2') in the
 * reader's language, whatever language the transcript was stored in; a name a user gave, as it is.
 */
export function localSpeakerName(name: string, lang: string): string {
  const n = /^(?:说话人|Speaker )(\d{1,4})$/.exec(name)?.[1];
  return n === undefined ? name : speakerLabel(Number(n) - 1, lang);
}

/** Nicknames: 1–20 characters. */
export const NICKNAME_MAX = 20;

/** Invite codes: 8 characters from A–Z and 2–9 without the look-alikes I and O (the database generates them). */
export const INVITE_CODE_LENGTH = 8;
export const INVITE_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{8}$/;

/** The survey answer the SPA sends for a step the user closed without answering (spec §4). */
export const SURVEY_SKIP = "Skip";

/** postMessage the login page sends to its parent window (ARCHITECTURE §3). */
export const LOGIN_SUCCESS_MESSAGE = "login-success";
/** postMessage the login page sends its parent with its content's height, so the frame shows it whole. */
export const LOGIN_SIZE_MESSAGE = "login-size";

/** /tranSatis ratings: 1 (very unsatisfied) to 5 (very satisfied), with an optional comment. */
export const SATISFACTION_MIN = 1;
export const SATISFACTION_MAX = 5;
export const SATISFACTION_COMMENT_MAX = 500;

/** Spec §9: the cashier polls an order every 5 s; the QR box is 140×140. */
export const PAY_POLL_MS = 5000;
export const QR_SIZE = 140;

/** Spec §5/§9: gift codes are 8 characters (letters and digits; case does not matter). */
export const GIFT_CODE_LENGTH = 8;
export const GIFT_CODE_PATTERN = /^[A-Za-z0-9]{8}$/;
/** Gift-code types 101–199 grant that many days of membership (spec §4); 0 beans; 1 a time card (seconds). */
export const GIFT_MEMBERSHIP_TYPES = { min: 101, max: 199 } as const;

/** A reward type that grants days of membership (a gift code's 101–199), not beans or card time. */
export function isMembershipRewardType(rewardType: number): boolean {
  return rewardType >= GIFT_MEMBERSHIP_TYPES.min && rewardType <= GIFT_MEMBERSHIP_TYPES.max;
}
/** Shop: at most this many units of one goods per redeem. */
export const SHOP_MAX_QUANTITY = 999;
/** Feedback: the text, the contact, and up to 3 screenshots (images, each at most 5 MiB). */
export const FEEDBACK_TEXT_MAX = 2000;
export const FEEDBACK_CONTACT_MAX = 100;
export const FEEDBACK_IMAGES_MAX = 3;
export const FEEDBACK_IMAGE_BYTES = 5 * 1024 * 1024;
/** Spec §9: the unread badge shows '99+' beyond this. */
export const UNREAD_BADGE_MAX = 99;

/** An avatar image (POST api/v1/user/upload_photo): PNG, JPEG, WebP or GIF, at most 2 MiB. */
export const AVATAR_IMAGE_BYTES = 2 * 1024 * 1024;
/** The built-in avatars the app ships (apps/web/public/avatars): the userPhoto values anyone may choose. */
export const BUILT_IN_AVATARS: readonly string[] = Array.from({ length: 8 }, (_, i) => `/avatars/a${i + 1}.svg`);

/**
 * What one gift code may grant and how it may be made (the operators' tools check these; redemption
 * never overflows a column): beans per code, time-card seconds per code, membership days per code,
 * redemptions per code, and codes per batch.
 */
export const GIFT_CODE_LIMITS = {
  beans: 1_000_000,
  cardSeconds: 10_000 * 3600,
  memberDays: 3650,
  maxRedemptions: 1_000_000,
  count: 10_000,
} as const;

/** The largest bean balance an account can hold (PostgreSQL integer): a grant past it is refused (60011). */
export const BEAN_BALANCE_MAX = 2_147_483_647;
