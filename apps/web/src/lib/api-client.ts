import { fillTemplate, httpStatusMessages, StatusCode, statusMessage } from "@yuelu/contracts/constants";
import { toast } from "sonner";
import { apiBase, REQUEST_TIMEOUT_MS } from "@/config/env.ts";
import { clearSessionCookies } from "./cookies.ts";
import { currentLang, i18n } from "./i18n.ts";
import { clearAllStorage } from "./storage.ts";

/** A failed call: a spec §8 status code from the envelope, or an HTTP status, or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly kind: "business" | "http" | "network" = "business",
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const SUCCESS = StatusCode.Success;

type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** query string parameters */
  params?: Params;
  /** JSON body */
  data?: unknown;
  /** multipart body (files allowed) */
  form?: FormData | Record<string, string | Blob>;
  /** application/x-www-form-urlencoded body */
  urlencoded?: Params;
  responseType?: "json" | "blob";
  /** don't toast on failure (spec §8: shop, reward and message calls only log) */
  silent?: boolean;
  signal?: AbortSignal;
  /** the request outlives the page (fetch keepalive: an edit sent as the tab closes; body ≤ 64 KiB) */
  keepalive?: boolean;
}

/** Adds what spec §7 puts on every request: timeStamp, source 0, the page's `key`, and the language. */
export function buildRequest(path: string, options: RequestOptions = {}): { url: string; init: RequestInit } {
  const url = new URL(`${apiBase()}${path.startsWith("/") ? path : `/${path}`}`, window.location.origin);
  for (const [k, v] of Object.entries(options.params ?? {})) {
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  }
  url.searchParams.set("timeStamp", String(Date.now()));
  const headers: Record<string, string> = { source: "0", lang: currentLang() };
  const pageKey = new URLSearchParams(window.location.search).get("key");
  if (pageKey) headers.key = pageKey;

  let body: BodyInit | undefined;
  if (options.form) {
    body = options.form instanceof FormData ? options.form : toFormData(options.form);
  } else if (options.urlencoded) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(
      Object.entries(options.urlencoded).flatMap(([k, v]) => (v === undefined || v === null ? [] : [[k, String(v)]])),
    ).toString();
  } else if (options.data !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.data);
  }
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
    : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const init: RequestInit = { method, headers, body, credentials: "same-origin", signal };
  if (options.keepalive) init.keepalive = true;
  return { url: url.toString(), init };
}

function toFormData(fields: Record<string, string | Blob>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

/**
 * Calls the API and unwraps the envelope: resolves with `data` on status_code 1, throws ApiError
 * otherwise (after the spec §8 client handling, see handleApiError). Blobs pass through; an empty
 * blob is an error.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await send<T>(path, options);
  } catch (error) {
    const apiError = toApiError(error);
    handleApiError(apiError, options.silent);
    throw apiError;
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const { url, init } = buildRequest(path, options);
  const res = await fetch(url, init);
  const type = res.headers.get("content-type") ?? "";
  if (options.responseType === "blob" && res.ok && !type.includes("application/json")) {
    const blob = await res.blob();
    if (blob.size === 0) throw new ApiError(0, i18n.t("errors.emptyFile"), "http");
    return blob as T;
  }
  const body: unknown = type.includes("application/json") ? await res.json() : undefined;
  return readEnvelope<T>({ status: res.status, body }, path);
}

/** A /voice_yuelu JSON answer (ARCHITECTURE §2). */
interface Envelope<T> {
  status_code: number;
  status_msg?: string;
  data?: T;
}

function asEnvelope<T>(body: unknown): Envelope<T> | null {
  const candidate = body as Partial<Envelope<T>> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.status_code === "number"
    ? (candidate as Envelope<T>)
    : null;
}

/**
 * The one envelope parser, for fetch calls, XMLHttpRequest uploads and tus uploads alike: the data of
 * status_code 1, else the refusal as an ApiError (the server's message, else the code's own). An answer
 * that is no envelope is judged by its HTTP status — `tooLarge` words a 413 where the caller knows why —
 * and a 2xx without an envelope is a system error.
 */
export function readEnvelope<T>(answer: { status: number; body: unknown }, path: string, tooLarge?: string): T {
  const envelope = asEnvelope<T>(answer.body);
  if (envelope) {
    if (envelope.status_code === SUCCESS) return envelope.data as T;
    throw new ApiError(envelope.status_code, envelope.status_msg || codeMessage(envelope.status_code));
  }
  const { status } = answer;
  if (status === 413 && tooLarge) throw new ApiError(413, tooLarge, "http");
  if (status < 200 || status >= 300) throw new ApiError(status, httpMessage(status, path), "http");
  throw new ApiError(StatusCode.SystemError, codeMessage(StatusCode.SystemError));
}

/** readEnvelope for an answer's text (XMLHttpRequest, tus): text that is not JSON is no envelope. */
export function readEnvelopeText<T>(status: number, text: string, path: string, tooLarge?: string): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return readEnvelope<T>({ status, body }, path, tooLarge);
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new ApiError(408, httpMessage(408, ""), "http");
  }
  return new ApiError(0, i18n.t("errors.network"), "network");
}

/**
 * A status code's message in the UI's language, from the contracts' catalogue (the server words
 * its own the same way). Used when the envelope carries no message; a template's detail
 * ("：{field}") is left out, there being none to fill in.
 */
export function codeMessage(code: number): string {
  return statusMessage(code, currentLang()).replace(/\s*[：:]?\s*\{\w+\}/g, "");
}

/** Spec §8 client texts for HTTP statuses; other statuses get the generic message. */
export function httpMessage(status: number, url: string): string {
  const entry = httpStatusMessages[status];
  return entry ? fillTemplate(entry[currentLang()], { url }) : i18n.t("errors.generic");
}

/** The spec §8 client rules (10006 signs out, 2200001 reloads) without a toast: the caller shows the message. */
export function handleQuietly(error: ApiError): ApiError {
  handleApiError(error, true);
  return error;
}

/** Spec §8 client rules for a failed call. */
export function handleApiError(error: ApiError, silent = false) {
  if (error.code === StatusCode.Silent) return;
  if (error.code === StatusCode.UserDeleted && error.kind === "business") {
    clearSessionCookies();
    clearAllStorage();
    window.location.assign("/");
    return;
  }
  if (error.code === StatusCode.MembershipExpired) {
    window.location.reload();
    return;
  }
  if (silent) {
    console.warn(`[api] ${error.code} ${error.message}`);
    return;
  }
  toast.error(error.message, { id: `api-${error.code}-${error.message}` });
}
