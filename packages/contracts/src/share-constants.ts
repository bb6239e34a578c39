/** Share links' constants (docs/share.md): the web app imports these through `@yuelu/contracts/constants`. */

/** The expiries a link may have, in days; 0 = never expires. */
export const SHARE_EXPIRE_DAYS = [1, 7, 30, 0] as const;
export type ShareExpireDays = (typeof SHARE_EXPIRE_DAYS)[number];
/** What `/text/generate_url` called with only `fileId` makes (as the spec's client does). */
export const SHARE_DEFAULT_EXPIRE_DAYS: ShareExpireDays = 7;
export const SHARE_PASSWORD_MIN = 4;
export const SHARE_PASSWORD_MAX = 64;
/**
 * A repeated default generate_url within this many seconds answers the link it made last time rather
 * than a new one: a double click or a retry does not pile up links.
 */
export const SHARE_DEFAULT_REUSE_SECONDS = 60;

/** Guesses of /s/ tokens one address may make (requests for unknown tokens) per window. */
export const SHARE_GUESS_LIMIT = 20;
export const SHARE_GUESS_WINDOW_SECONDS = 600;
/** Wrong passwords per link, and per address, per window. */
export const SHARE_PASSWORD_LIMIT = 10;
export const SHARE_PASSWORD_WINDOW_SECONDS = 600;
/** Share pages one address may load per minute, valid links included (a flood guard). */
export const SHARE_PAGE_LIMIT_PER_MINUTE = 120;

export const SHARE_STATES = ["active", "expired", "revoked"] as const;
export type ShareState = (typeof SHARE_STATES)[number];
