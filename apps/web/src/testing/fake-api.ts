import { vi } from "vitest";
import { refreshSession } from "@/lib/session.ts";

export interface FakeCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: FakeCall) => unknown | Response | Promise<unknown | Response>;

/**
 * A fake backend for component tests (named as such): routes by "METHOD /path" under /voice_yuelu,
 * answers `{status_code:1, data}` for plain values, passes Responses through, records every call.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), window.location.origin);
    const method = (init.method ?? "GET").toUpperCase();
    const headers = Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {}));
    let body: unknown = init.body;
    if (typeof body === "string" && headers["content-type"] === "application/json") body = JSON.parse(body);
    const call = { method, url, headers, body };
    calls.push(call);
    const path = url.pathname.replace(/^\/voice_yuelu/, "");
    const handler = routes[`${method} ${path}`] ?? routes[`* ${path}`];
    if (!handler) return json({ status_code: 404, status_msg: `no fake for ${method} ${path}`, data: null }, 404);
    const result = await handler(call);
    if (result instanceof Response) return result;
    return json({ status_code: 1, status_msg: "success", data: result ?? null });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, fetchMock, callsTo: (path: string) => calls.filter((c) => c.url.pathname.endsWith(path)) };
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function envelopeError(code: number, message = ""): Response {
  return json({ status_code: code, status_msg: message, data: null });
}

export function signInCookies(userId = "42", name = "小明") {
  document.cookie = `userid=${userId}; path=/`;
  document.cookie = `name=${encodeURIComponent(name)}; path=/`;
  refreshSession();
}
