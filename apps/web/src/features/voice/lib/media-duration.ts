/**
 * A local audio file's length in seconds, read by the browser from its metadata, or null when it
 * cannot tell (a format it does not decode, a live WebM, nothing within `timeoutMs`).
 */
export function readAudioDuration(file: Blob, timeoutMs = 4000): Promise<number | null> {
  if (typeof URL.createObjectURL !== "function") return Promise.resolve(null);
  const media = document.createElement("audio");
  const url = URL.createObjectURL(file);
  return new Promise<number | null>((resolve) => {
    const finish = (seconds: number | null) => {
      clearTimeout(timer);
      media.onloadedmetadata = null;
      media.onerror = null;
      media.removeAttribute("src");
      media.load?.();
      URL.revokeObjectURL(url);
      resolve(seconds);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    media.preload = "metadata";
    media.muted = true;
    media.onloadedmetadata = () =>
      finish(Number.isFinite(media.duration) && media.duration > 0 ? media.duration : null);
    media.onerror = () => finish(null);
    media.src = url;
  });
}
