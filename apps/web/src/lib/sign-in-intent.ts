import { INVITE_CODE_PATTERN } from "@yuelu/contracts/constants";
import { loginDialog } from "./app-dialogs.ts";

/**
 * Where a visitor was going when sign-in stopped them (issue 43 "sign-in to work in one step"): the
 * landing page's 'upload a file' asks for a sign-in on the way to /transaudio, and once signed in the
 * visitor is there, not back on the page they left. A sign-in asked for by a page the visitor stays
 * on (its 'sign in to view', the cashier's 'log in to view' over a plan) needs no intent: the page,
 * and the cashier with its plan, are still there afterwards.
 */
let intent: string | null = null;

/** Opens the login dialog, remembering that `path` is where the visitor goes once signed in. */
export function signInTo(path: string): void {
  intent = path;
  loginDialog.open();
}

/** The path to go to after a sign-in, once: taking it forgets it. */
export function takeSignInIntent(): string | null {
  const path = intent;
  intent = null;
  return path;
}

/** What a sign-in now would lead to (null: stay where the visitor is). */
export function peekSignInIntent(): string | null {
  return intent;
}

/** The visitor closed the login dialog without signing in: a later sign-in goes nowhere else. */
export function dropSignInIntent(): void {
  intent = null;
}

/**
 * The invite link's parameter (`/?invite=CODE`): a visitor who arrives with it gets the login dialog,
 * and the login page sends the code with the sign-up (docs/engagement.md "Invite links").
 */
export const INVITE_PARAM = "invite";
const INVITE_KEY = "yuelu_invite";

/** An invite code as typed or linked (case and spaces do not matter); null when it cannot be one. */
export function normalizeInviteCode(raw: string | null | undefined): string | null {
  const code = (raw ?? "").trim().toUpperCase();
  return INVITE_CODE_PATTERN.test(code) ? code : null;
}

/** The link a user shares: the site's address with their code. */
export function inviteLink(code: string, origin: string = window.location.origin): string {
  return `${origin}/?${INVITE_PARAM}=${encodeURIComponent(code)}`;
}

/**
 * The invite code this tab arrived with, kept for the tab's life (sessionStorage), so the visitor may
 * look around before signing up and still sign up as invited.
 */
export function rememberInvite(search: string): string | null {
  const code = normalizeInviteCode(new URLSearchParams(search).get(INVITE_PARAM));
  if (code) {
    try {
      sessionStorage.setItem(INVITE_KEY, code);
    } catch {
      // storage disabled: the code still travels while it is in the address
    }
  }
  return code;
}

/** The invite code a sign-up from this tab carries: the address's, else the one the tab arrived with. */
export function pendingInvite(search: string = window.location.search): string | null {
  const fromUrl = normalizeInviteCode(new URLSearchParams(search).get(INVITE_PARAM));
  if (fromUrl) return fromUrl;
  try {
    return normalizeInviteCode(sessionStorage.getItem(INVITE_KEY));
  } catch {
    return null;
  }
}
