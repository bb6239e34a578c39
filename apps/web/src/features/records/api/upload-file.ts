import type { UploadResult } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { ApiError, buildRequest, codeMessage, handleApiError, httpMessage, SUCCESS } from "@/lib/api-client.ts";
import { i18n } from "@/lib/i18n.ts";

export const UPLOAD_PATH = "/api/v1/audio/upload";

export interface UploadRequest {
  file: Blob;
  fileName: string;
  /** client id: retrying the same id after a success answers the same record */
  uploadId: string;
  menuId?: string | null;
  onProgress?: (loaded: number, total: number) => void;
}

export interface UploadHandle {
  promise: Promise<UploadResult>;
  abort(): void;
}

/** An upload the user canceled. */
export class UploadAborted extends Error {
  constructor() {
    super("upload aborted");
    this.name = "UploadAborted";
  }
}

/**
 * POST /api/v1/audio/upload through XMLHttpRequest (fetch has no upload progress). Same headers and
 * query as every other call (buildRequest: timeStamp, source 0, lang, the page's key); the ids go
 * both in the query and as fields before the file, so the server knows them before the file streams.
 * No timeout: a 1 GiB upload on a slow line may take longer than the 10-minute request timeout, and
 * the user sees its progress and can cancel it.
 */
export function uploadFile(req: UploadRequest): UploadHandle {
  const ids: Record<string, string> = { uploadId: req.uploadId };
  if (req.menuId) ids.menuId = req.menuId;
  const { url, init } = buildRequest(UPLOAD_PATH, { params: ids });
  const form = new FormData();
  for (const [k, v] of Object.entries(ids)) form.append(k, v);
  form.append("file", req.file, req.fileName);

  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadResult>((resolve, reject) => {
    xhr.open("POST", url);
    for (const [k, v] of Object.entries(init.headers as Record<string, string>)) xhr.setRequestHeader(k, v);
    // Progress counts the whole multipart body (the file plus a few hundred bytes of form); users
    // read it as the file's bytes, so the sizes shown during and after the upload are the same.
    xhr.upload.onprogress = (e) => {
      const size = req.file.size;
      const share = e.lengthComputable && e.total > 0 ? e.loaded / e.total : 0;
      req.onProgress?.(Math.min(size, Math.round(share * size)), size);
    };
    xhr.onload = () => {
      try {
        resolve(parseResponse(xhr.status, xhr.responseText));
      } catch (error) {
        reject(report(error as ApiError));
      }
    };
    xhr.onerror = () => reject(report(new ApiError(0, i18n.t("errors.network"), "network")));
    xhr.onabort = () => reject(new UploadAborted());
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

function parseResponse(status: number, text: string): UploadResult {
  let envelope: { status_code?: number; status_msg?: string; data?: UploadResult } | null = null;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = null;
  }
  if (envelope && typeof envelope.status_code === "number") {
    if (envelope.status_code === SUCCESS && envelope.data) return envelope.data;
    throw new ApiError(envelope.status_code, envelope.status_msg || codeMessage(envelope.status_code));
  }
  if (status === 413) throw new ApiError(413, i18n.t("upload.serverTooLarge"), "http");
  if (status < 200 || status >= 300) throw new ApiError(status, httpMessage(status, UPLOAD_PATH), "http");
  throw new ApiError(StatusCode.SystemError, codeMessage(StatusCode.SystemError));
}

/** The spec §8 client rules still apply (10006 signs out, 2200001 reloads); the message shows on the item. */
function report(error: ApiError): ApiError {
  handleApiError(error, true);
  return error;
}
