import { vi } from "vitest";

/**
 * A fake XMLHttpRequest for upload tests (named as such): records each request, and lets the test
 * drive it: upload progress, the answer, a network failure. Installed with installFakeXhr().
 */
export class FakeXhr {
  static instances: FakeXhr[] = [];
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: FormData | null = null;
  /** what send() was given, whatever it was (a tus PATCH sends a Blob slice) */
  sent: unknown = null;
  responseHeaders: Record<string, string> = {};
  status = 0;
  responseText = "";
  withCredentials = false;
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.instances.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData | Blob | null) {
    this.sent = body;
    this.body = body instanceof FormData ? body : null;
  }
  getResponseHeader(name: string): string | null {
    const key = Object.keys(this.responseHeaders).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? null : (this.responseHeaders[key] ?? null);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }

  /** test side */
  get query(): URLSearchParams {
    return new URL(this.url, window.location.origin).searchParams;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  respond(data: unknown, code = 1, status = 200, message = "") {
    this.status = status;
    this.responseText = JSON.stringify({ status_code: code, status_msg: message, data });
    this.onload?.();
  }
  respondRaw(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
  /** a tus answer: status, headers (Location, Upload-Offset…) and an optional body */
  respondTus(status: number, headers: Record<string, string> = {}, body = "") {
    this.status = status;
    this.responseHeaders = { "Tus-Resumable": "1.0.0", ...headers };
    this.responseText = body;
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
}

export function installFakeXhr() {
  FakeXhr.instances = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  return FakeXhr;
}
