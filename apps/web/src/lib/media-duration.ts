import { VIDEO_FORMATS } from "@yuelu/contracts/constants";
import { extensionOf } from "@/utils/file-name.ts";

/** How long to wait for a file's metadata before going on without its length. */
export const DURATION_TIMEOUT_MS = 5000;

/** Makes the media element that reads the metadata (tests hand in a fake one). */
export type MediaElementFactory = (kind: "audio" | "video") => HTMLMediaElement;

const createMediaElement: MediaElementFactory = (kind) => document.createElement(kind);

/**
 * A local file's length in seconds, read by the browser from its metadata (an object URL in an
 * <audio>, or a <video> when its name says video, with preload=metadata), or null when the browser
 * cannot decode the format (wma, amr, mxf…), the length is not finite (a live WebM recording), or
 * nothing comes within `timeoutMs`. Nothing is uploaded to find it out. The records' uploads and the
 * voice pages' samples and songs read it alike.
 */
export function readMediaDuration(
  file: Blob & { name?: string },
  { timeoutMs = DURATION_TIMEOUT_MS, create = createMediaElement } = {},
): Promise<number | null> {
  if (typeof URL.createObjectURL !== "function") return Promise.resolve(null);
  const kind = VIDEO_FORMATS.includes(extensionOf(file.name ?? "")) ? "video" : "audio";
  const media = create(kind);
  const url = URL.createObjectURL(file);
  return new Promise<number | null>((resolve) => {
    const finish = (seconds: number | null) => {
      clearTimeout(timer);
      media.onloadedmetadata = null;
      media.onerror = null;
      // Let go of the file: without a source the element stops reading it.
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
