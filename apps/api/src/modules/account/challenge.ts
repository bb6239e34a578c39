import { createHmac } from "node:crypto";
import { type SmsChallenge, StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import { createChallenge, verifySolution } from "altcha-lib/v1";
import type { Limiter } from "../../lib/limiter.ts";

/**
 * Proof of work instead of a refusal (ALTCHA v1, altcha-lib): past SMS_FREE_PER_ADDRESS codes an
 * hour from one address, each further code needs a solved challenge. A person's browser solves one
 * in well under a second (the login page does it by itself), so everyone behind a school's or an
 * office's one address can still sign in; a script pumping SMS pays CPU for every message, and the
 * price doubles with each further SMS_FREE_PER_ADDRESS codes that hour. The per-phone limits stay.
 */

/** Codes an address may ask for in an hour without a challenge (the old hard limit). */
export const SMS_FREE_PER_ADDRESS = 30;
/** Hashes the first challenge may need at most (a browser does ~0.2–1 M SHA-256 a second). */
const BASE_MAX_NUMBER = 50_000;
/** The most a challenge asks (~ tens of seconds in a browser), however busy the address. */
const MAX_MAX_NUMBER = 20_000_000;
const CHALLENGE_TTL_SECONDS = 300;

/** The ALTCHA key, derived from the cookie secret (so replicas agree and nothing new must be set). */
function hmacKey(secret: string): string {
  return createHmac("sha256", secret).update("yuelu-sms-altcha").digest("hex");
}

/** How hard a challenge is for an address that asked `count` codes this hour. */
export function maxNumberFor(count: number): number {
  const doublings = Math.max(0, Math.floor((count - SMS_FREE_PER_ADDRESS) / SMS_FREE_PER_ADDRESS));
  return Math.min(MAX_MAX_NUMBER, BASE_MAX_NUMBER * 2 ** Math.min(doublings, 20));
}

export async function smsChallenge(secret: string, addressCount: number): Promise<SmsChallenge> {
  const challenge = await createChallenge({
    algorithm: "SHA-256",
    hmacKey: hmacKey(secret),
    maxnumber: maxNumberFor(addressCount),
    expires: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000),
  });
  return { ...challenge, algorithm: "SHA-256", maxnumber: challenge.maxnumber ?? BASE_MAX_NUMBER };
}

/**
 * Accepts a solved challenge once: its signature, solution and expiry are checked, then its
 * signature is spent (a shared counter, so no replica accepts it twice). Anything else: 10008.
 */
export async function spendSolution(secret: string, limiter: Limiter, payload: string | undefined): Promise<void> {
  if (payload && (await verifySolution(payload, hmacKey(secret), true))) {
    const { signature } = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as { signature: string };
    if (await limiter.hit(`sms:pow:${signature}`, 1, CHALLENGE_TTL_SECONDS + 60)) return;
  }
  throw new AppError(StatusCode.ChallengeRequired);
}
