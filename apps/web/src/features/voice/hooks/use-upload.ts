import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "@/lib/api-client.ts";
import { setBusy } from "@/lib/busy.ts";
import { i18n } from "@/lib/i18n.ts";
import { type FormUpload, UploadAborted, type UploadHandle, uploadForm } from "@/lib/upload-form.ts";

export type UploadState =
  | { phase: "idle" }
  | { phase: "uploading"; loaded: number; total: number }
  | { phase: "failed"; message: string; code: number };

/**
 * One create call that sends a file (a voice sample, a song, a MIDI file) with its progress. A
 * second start while one is in flight is dropped (a double click): the ref is set in the same event.
 * Leaving the page cancels it.
 */
export function useUpload<T>(path: string) {
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const handle = useRef<UploadHandle<T> | null>(null);

  useEffect(
    () => () => {
      handle.current?.abort();
      setBusy(`voice-upload-${path}`, false);
    },
    [path],
  );

  const start = useCallback(
    async (req: FormUpload): Promise<T | null> => {
      if (handle.current) return null;
      const total = req.file?.blob.size ?? 0;
      setState({ phase: "uploading", loaded: 0, total });
      const h = uploadForm<T>(path, {
        ...req,
        tooLarge: i18n.t("voiceKit.serverTooLarge"),
        onProgress: (loaded, size) => setState({ phase: "uploading", loaded, total: size }),
      });
      handle.current = h;
      setBusy(`voice-upload-${path}`, true);
      try {
        const result = await h.promise;
        setState({ phase: "idle" });
        return result;
      } catch (error) {
        if (error instanceof UploadAborted) setState({ phase: "idle" });
        else
          setState({
            phase: "failed",
            message: error instanceof Error ? error.message : String(error),
            code: error instanceof ApiError ? error.code : 0,
          });
        return null;
      } finally {
        handle.current = null;
        setBusy(`voice-upload-${path}`, false);
      }
    },
    [path],
  );

  const cancel = useCallback(() => handle.current?.abort(), []);
  const reset = useCallback(() => setState({ phase: "idle" }), []);
  return { state, start, cancel, reset, busy: state.phase === "uploading" };
}
