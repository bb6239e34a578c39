import { ApiError, buildRequest, handleQuietly, readEnvelopeText } from "./api-client.ts";
import { i18n } from "./i18n.ts";

export interface FormUpload {
  /** the fields, sent in this order before the file (the server reads them before the file streams) */
  fields: Record<string, string | number | undefined>;
  file?: { field: string; blob: Blob; name: string };
  onProgress?: (loaded: number, total: number) => void;
  /** what a 413 without an envelope says (a proxy refused the body before the server saw it) */
  tooLarge?: string;
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
 * A multipart POST with upload progress, through XMLHttpRequest (fetch has none), with the headers
 * and query every call has (buildRequest). No timeout (the user sees the progress and can cancel);
 * the spec §8 client rules on failure but no toast — the page shows the server's message beside the
 * form.
 */
export function uploadForm<T>(path: string, req: FormUpload): UploadHandle<T> {
  const { url, init } = buildRequest(path);
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
        resolve(readEnvelopeText<T>(xhr.status, xhr.responseText, path, req.tooLarge));
      } catch (error) {
        reject(handleQuietly(error as ApiError));
      }
    };
    xhr.onerror = () => reject(handleQuietly(new ApiError(0, i18n.t("errors.network"), "network")));
    xhr.onabort = () => reject(new UploadAborted());
    xhr.send(formOf(req));
  });
  return { promise, abort: () => xhr.abort() };
}

/** The fields first (empty ones left out), then the file. */
function formOf(req: FormUpload): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(req.fields)) if (v !== undefined && v !== "") form.append(k, String(v));
  if (req.file) form.append(req.file.field, req.file.blob, req.file.name);
  return form;
}
