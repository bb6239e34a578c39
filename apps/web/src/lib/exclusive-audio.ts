/**
 * One sound at a time across the app: an audio element that starts playing pauses the one that
 * played before (a library sample, a preview, a take, a work, a fresh result).
 */
let current: HTMLMediaElement | null = null;

export function claimAudio(element: HTMLMediaElement) {
  if (current && current !== element && !current.paused) current.pause();
  current = element;
}

export function releaseAudio(element: HTMLMediaElement) {
  if (current === element) current = null;
}
