import type { UploadResult } from "@yuelu/contracts";
import { MAX_UPLOAD_BYTES, StatusCode } from "@yuelu/contracts/constants";
import * as tus from "tus-js-client";
import { apiBase } from "@/config/env.ts";
import { ApiError, api, buildRequest, codeMessage, handleQuietly, readEnvelopeText } from "@/lib/api-client.ts";
import { i18n } from "@/lib/i18n.ts";
import { UploadAborted } from "@/lib/upload-form.ts";
import { RecordingSource } from "./recording-source.ts";

/** The tus creation endpoint (issue 31): uploads of any size, in chunks, resumable. */
export const UPLOAD_PATH = "/api/v1/audio/uploads";

/**
 * Bytes per PATCH: far under any proxy's body cap (Cloudflare's 100 MB…), large enough that a 1 GiB
 * file is ~128 requests, and what one retry re-sends at most after a dropped connection.
 */
export const CHUNK_BYTES = 8 * 1024 * 1024;
/**
 * Bytes per PATCH of a recording sent while it is made: about half a minute to a minute of browser audio,
 * so what reaches the server trails the microphone by that much, not by the whole recording.
 */
export const RECORDING_CHUNK_BYTES = 256 * 1024;

/** Waits between retries after a network failure or a server error: about five minutes in all. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000, 60_000, 90_000];

export interface UploadRequest {
  file: Blob;
  fileName: string;
  /** client id of the item (kept with it; the server makes the upload's own id) */
  uploadId: string;
  menuId?: string | null;
  onProgress?: (loaded: number, total: number) => void;
  /** an upload begun earlier (before a reload, a cancel or a dropped network) goes on from `offset` */
  onResume?: (offset: number, total: number) => void;
  /**
   * A recording still being made (its IndexedDB id): sent as it grows, with a deferred length that the last
   * PATCH declares once the recorder stops. `file` is then only its name and type.
   */
  growingRecording?: string;
  /** the deferred-length upload a recording began (kept in IndexedDB): this file goes on where it stopped */
  uploadUrl?: string;
  /** the upload's URL, once the server made it (a recording keeps it to go on after a reload) */
  onUploadUrl?: (url: string) => void;
  /**
   * A recording's live-caption sessions (docs/live.md "Metering"): sent as the `liveSessionId` metadata, so
   * its transcription is not charged again for what the captions were. A promise: the upload is created
   * once it settles (a recording's upload begins with it, a moment before its captions have a session).
   */
  liveSessionId?: string | Promise<string | undefined>;
}

export interface UploadHandle {
  promise: Promise<UploadResult>;
  /** stops sending; `forget` also ends the upload on the server (nothing to resume) */
  abort(forget?: boolean): void;
}

/**
 * Sends a file over tus with tus-js-client: created with its name and type as Upload-Metadata, then
 * PATCHed in CHUNK_BYTES pieces, retried by itself after a dropped network. The upload's URL is kept in
 * localStorage under the file's fingerprint (name, type, size, date), so the same file picked again
 * after a reload — or a recording restored from IndexedDB — goes on where the server stopped. The
 * last PATCH answers the usual envelope; a HEAD that finds the upload already done (its answer was
 * lost) names the record, which is then read.
 */
export function uploadFile(req: UploadRequest): UploadHandle {
  const { init } = buildRequest(UPLOAD_PATH);
  const headers = { ...(init.headers as Record<string, string>) };
  const metadata: Record<string, string> = { filename: req.fileName, filetype: req.file.type || "" };
  if (req.menuId) metadata.menuId = req.menuId;
  let upload: tus.Upload | null = null;
  let aborted = false;
  let fail: (error: Error) => void = () => {};
  let resumedFrom: number | null = null;

  // a recording's upload has a deferred length: while it is made, and when its finished file goes on later
  const recording = req.growingRecording !== undefined || req.uploadUrl !== undefined;
  const promise = new Promise<UploadResult>((resolve, reject) => {
    fail = reject;
    const begin = (liveSessionId: string | undefined) => {
      if (aborted) return;
      if (liveSessionId) metadata.liveSessionId = liveSessionId;
      start(resolve, reject);
    };
    if (req.liveSessionId instanceof Promise) req.liveSessionId.then(begin, () => begin(undefined));
    else begin(req.liveSessionId);
  });

  function start(resolve: (result: UploadResult) => void, reject: (error: Error) => void) {
    upload = new tus.Upload(req.file, {
      endpoint: new URL(`${apiBase()}${UPLOAD_PATH}`, window.location.origin).href,
      headers,
      metadata,
      chunkSize: recording ? RECORDING_CHUNK_BYTES : CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      ...(recording ? { uploadLengthDeferred: true } : {}),
      ...(req.uploadUrl ? { uploadUrl: req.uploadUrl } : {}),
      ...(req.growingRecording !== undefined
        ? { fileReader: { openFile: async () => new RecordingSource(req.growingRecording as string) } }
        : {}),
      // a recording's upload URL lives with the recording in IndexedDB, not under a file fingerprint
      storeFingerprintForResuming: !recording,
      removeFingerprintOnSuccess: true,
      onUploadUrlAvailable() {
        if (upload?.url) req.onUploadUrl?.(upload.url);
      },
      onBeforeRequest(request) {
        // the first PATCH of a resumed upload says where the server stopped
        if (resumedFrom === null && request.getMethod() === "PATCH") {
          resumedFrom = Number(request.getHeader("Upload-Offset")) || 0;
          if (resumedFrom > 0 && req.growingRecording === undefined) req.onResume?.(resumedFrom, req.file.size);
        }
      },
      // a growing recording's total is unknown (null) until it stops: the bytes sent so far are the news
      onProgress: (sent, total) => req.onProgress?.(sent, total ?? 0),
      onShouldRetry: (error) => retryable(error.originalResponse?.getStatus() ?? 0),
      onSuccess: ({ lastResponse }) => {
        finalAnswer(lastResponse).then(resolve, (error: ApiError) => reject(handleQuietly(error)));
      },
      onError: (error) => reject(handleQuietly(refusalOf(error))),
    });
    const started = upload;
    if (recording) {
      started.start();
      return;
    }
    started
      .findPreviousUploads()
      .then((previous) => {
        const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (latest) started.resumeFromPreviousUpload(latest);
      })
      .catch(() => {})
      .finally(() => started.start());
  }
  return {
    promise,
    abort(forget = false) {
      aborted = true;
      void upload?.abort(forget).catch(() => {});
      fail(new UploadAborted());
    },
  };
}

/** Lost connections, server errors, a locked or moved-on upload: try again; a refusal (4xx) is final. */
function retryable(status: number): boolean {
  return status === 0 || status === 409 || status === 423 || status >= 500;
}

/** The record the upload became: the last PATCH's envelope, or the record a HEAD names. */
async function finalAnswer(res: tus.HttpResponse): Promise<UploadResult> {
  const body = res.getBody();
  if (body) return readAnswer(res.getStatus(), body);
  const fileId = Number(res.getHeader("Yuelu-File-Id"));
  if (!fileId) throw new ApiError(StatusCode.SystemError, codeMessage(StatusCode.SystemError));
  const record = await api<UploadResult>("/api/v3/audio/record/get_record_by_id", { params: { fileId } });
  const { fileName, timeLen, fileStatus, fileSize, format } = record;
  return { fileId, fileName, timeLen, fileStatus, fileSize, format };
}

function refusalOf(error: Error): ApiError {
  const res = (error as tus.DetailedError).originalResponse;
  if (!res || res.getStatus() === 0) return new ApiError(0, i18n.t("errors.network"), "network");
  try {
    readAnswer(res.getStatus(), res.getBody());
  } catch (refusal) {
    return refusal as ApiError;
  }
  return new ApiError(StatusCode.SystemError, codeMessage(StatusCode.SystemError));
}

/** An upload's answer; a 413 a proxy sent (no envelope) is the file's size. */
function readAnswer(status: number, text: string): UploadResult {
  return readEnvelopeText<UploadResult>(
    status,
    text,
    UPLOAD_PATH,
    i18n.t("upload.serverTooLarge", { size: `${MAX_UPLOAD_BYTES / 1024 ** 3} GB` }),
  );
}
