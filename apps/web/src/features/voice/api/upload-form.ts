import { StatusCode } from "@yuelu/contracts/constants";
import { ApiError, buildRequest, codeMessage, handleApiError, httpMessage, SUCCESS } from "@/lib/api-client.ts";
import { i18n } from "@/lib/i18n.ts";

export interface FormUpload {
  /** the fields, sent in this order before the file (the server reads them before the file streams) */
  fields: Record<string, string | number | undefined>;
  file?: { field: string; blob: Blob; name: string };
  onProgress?: (loaded: number, total: number) => void;
}

export interface UploadHandle<T> {
  promise: Promise<T>;
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
 * A multipart POST through XMLHttpRequest (fetch has no upload progress), with the headers and
 * query every call has (buildRequest). The records uploader's pattern: no timeout (the user sees the
 * progress and can cancel), the spec §8 client rules on failure but no toast — the page shows the
 * server's message beside the form.
 */
export function uploadForm<T>(path: string, req: FormUpload): UploadHandle<T> {
  const { url, init } = buildRequest(path);
  const form = new FormData();
  for (const [k, v] of Object.entries(req.fields)) if (v !== undefined && v !== "") form.append(k, String(v));
  if (req.file) form.append(req.file.field, req.file.blob, req.file.name);
  const size = req.file?.blob.size ?? 0;

  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open("POST", url);
    for (const [k, v] of Object.entries(init.headers as Record<string, string>)) xhr.setRequestHeader(k, v);
    // the whole multipart body counts; users read it as the file's bytes
    xhr.upload.onprogress = (e) => {
      const share = e.lengthComputable && e.total > 0 ? e.loaded / e.total : 0;
      req.onProgress?.(Math.min(size, Math.round(share * size)), size);
    };
    xhr.onload = () => {
      try {
        resolve(parseResponse<T>(xhr.status, xhr.responseText, path));
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

function parseResponse<T>(status: number, text: string, path: string): T {
  let envelope: { status_code?: number; status_msg?: string; data?: T } | null = null;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = null;
  }
  if (envelope && typeof envelope.status_code === "number") {
    if (envelope.status_code === SUCCESS && envelope.data) return envelope.data;
    throw new ApiError(envelope.status_code, envelope.status_msg || codeMessage(envelope.status_code));
  }
  if (status === 413) throw new ApiError(413, i18n.t("voiceKit.serverTooLarge"), "http");
  if (status < 200 || status >= 300) throw new ApiError(status, httpMessage(status, path), "http");
  throw new ApiError(StatusCode.SystemError, codeMessage(StatusCode.SystemError));
}

function report(error: ApiError): ApiError {
  handleApiError(error, true);
  return error;
}
