/**
 * The API's base path for this host (spec §7: it differs by host: a test path, the root, or a
 * product path). Set VITE_API_BASE at build time to override; hosts listed below get theirs.
 */
const BASE_BY_HOST_PREFIX: [prefix: string, base: string][] = [["test.", "/test/voice_yuelu"]];

export function apiBase(hostname: string = window.location.hostname): string {
  const configured = import.meta.env.VITE_API_BASE as string | undefined;
  if (configured) return configured;
  return BASE_BY_HOST_PREFIX.find(([prefix]) => hostname.startsWith(prefix))?.[1] ?? "/voice_yuelu";
}

/** Spec §9 constants the client uses. */
export const REQUEST_TIMEOUT_MS = 600_000;
export const CHECKIN_THROTTLE_MS = 2000;
export const SIGN_DIALOG_DELAY_MS = 1500;
