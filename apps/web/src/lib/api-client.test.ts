import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { envelopeError, fakeApi, json } from "../testing/fake-api.ts";
import { ApiError, api, buildRequest } from "./api-client.ts";
import { setLang } from "./i18n.ts";

const toastError = vi.fn();
vi.mock("sonner", () => ({ toast: { error: (...a: unknown[]) => toastError(...a), info: vi.fn() } }));

beforeEach(() => {
  toastError.mockReset();
  setLang("zh");
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, "", "/");
});

/** window.location with navigation spied on (the rest as the test page's). */
function spyLocation() {
  const assign = vi.fn();
  const reload = vi.fn();
  const real = window.location;
  vi.spyOn(window, "location", "get").mockReturnValue({
    origin: real.origin,
    hostname: real.hostname,
    href: real.href,
    pathname: real.pathname,
    search: "",
    assign,
    reload,
  } as unknown as Location);
  return { assign, reload };
}

describe("buildRequest (spec §7)", () => {
  it("adds timeStamp, the source 0 header, the language and the /voice_yuelu base", () => {
    const { url, init } = buildRequest("/api/v1/user/info", { params: { a: 1, skip: undefined } });
    const u = new URL(url);
    expect(u.pathname).toBe("/voice_yuelu/api/v1/user/info");
    expect(u.searchParams.get("timeStamp")).toMatch(/^\d{13}$/);
    expect(u.searchParams.get("a")).toBe("1");
    expect(u.searchParams.has("skip")).toBe(false);
    expect(init.headers).toMatchObject({ source: "0", lang: "zh" });
    expect((init.headers as Record<string, string>).key).toBeUndefined();
    expect(init.method).toBe("GET");
  });

  it("sends the page's key parameter as a key header", () => {
    window.history.replaceState(null, "", "/transaudio?key=abc123");
    const { init } = buildRequest("api/x");
    expect((init.headers as Record<string, string>).key).toBe("abc123");
  });

  it("supports JSON, url-encoded, form-data, PUT and DELETE", () => {
    expect(buildRequest("/x", { data: { a: 1 } }).init).toMatchObject({ method: "POST", body: '{"a":1}' });
    const enc = buildRequest("/x", { urlencoded: { a: "1 2", b: 3 } }).init;
    expect(enc.body).toBe("a=1+2&b=3");
    expect((enc.headers as Record<string, string>)["content-type"]).toBe("application/x-www-form-urlencoded");
    const form = buildRequest("/x", { form: { f: new Blob(["hi"]) } }).init;
    expect(form.body).toBeInstanceOf(FormData);
    expect(buildRequest("/x", { method: "PUT", form: { a: "1" } }).init.method).toBe("PUT");
    expect(buildRequest("/x", { method: "DELETE" }).init.method).toBe("DELETE");
  });
});

describe("api() envelope and spec §8 client rules", () => {
  it("unwraps data on status_code 1", async () => {
    fakeApi({ "GET /ok": () => ({ hello: "world" }) });
    await expect(api("/ok")).resolves.toEqual({ hello: "world" });
    expect(toastError).not.toHaveBeenCalled();
  });

  it("toasts the server's message when it has one, else the code's translation", async () => {
    fakeApi({ "GET /a": () => envelopeError(30001, "服务器说：记录不存在"), "GET /b": () => envelopeError(50002) });
    await expect(api("/a")).rejects.toMatchObject({ code: 30001 });
    expect(toastError).toHaveBeenLastCalledWith("服务器说：记录不存在", expect.anything());
    await expect(api("/b")).rejects.toBeInstanceOf(ApiError);
    expect(toastError).toHaveBeenLastCalledWith("今日转写额度已用完，请明天再来", expect.anything());
  });

  it("translates code messages into English after a language switch", async () => {
    setLang("en");
    fakeApi({ "GET /b": () => envelopeError(20004) });
    await expect(api("/b")).rejects.toBeInstanceOf(ApiError);
    expect(toastError).toHaveBeenLastCalledWith("File upload failed.", expect.anything());
  });

  it("80000 is silent; silent calls only log", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    fakeApi({ "GET /s": () => envelopeError(80000, "x"), "GET /q": () => envelopeError(99999, "boom") });
    await expect(api("/s")).rejects.toMatchObject({ code: 80000 });
    await expect(api("/q", { silent: true })).rejects.toMatchObject({ code: 99999 });
    expect(toastError).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalled();
  });

  it("10006 clears the session cookies and goes to the home page", async () => {
    document.cookie = "userid=1; path=/";
    document.cookie = "name=x; path=/";
    localStorage.setItem("yuelu_open_sign", "0");
    const { assign } = spyLocation();
    fakeApi({ "GET /u": () => envelopeError(10006, "deleted") });
    await expect(api("/u")).rejects.toMatchObject({ code: 10006 });
    expect(document.cookie).not.toContain("userid=1");
    expect(localStorage.getItem("yuelu_open_sign")).toBeNull();
    expect(assign).toHaveBeenCalledWith("/");
  });

  it("2200001 reloads the page", async () => {
    const { reload } = spyLocation();
    fakeApi({ "GET /m": () => envelopeError(2200001) });
    await expect(api("/m")).rejects.toMatchObject({ code: 2200001 });
    expect(reload).toHaveBeenCalled();
  });

  it("maps HTTP statuses to the spec's messages", async () => {
    fakeApi({
      "GET /gone": () => new Response("nope", { status: 502 }),
      "GET /missing": () => new Response("", { status: 404 }),
    });
    await expect(api("/gone")).rejects.toMatchObject({ code: 502, kind: "http" });
    expect(toastError).toHaveBeenLastCalledWith("网关错误", expect.anything());
    await expect(api("/missing")).rejects.toMatchObject({ code: 404 });
    expect(toastError).toHaveBeenLastCalledWith("请求地址出错: /missing", expect.anything());
  });

  it("passes blobs through and refuses an empty one", async () => {
    fakeApi({
      "GET /file": () => new Response("hello", { headers: { "content-type": "text/plain" } }),
      "GET /empty": () => new Response(new Blob([]), { headers: { "content-type": "application/octet-stream" } }),
    });
    const blob = await api<Blob>("/file", { responseType: "blob" });
    expect(await blob.text()).toBe("hello");
    await expect(api("/empty", { responseType: "blob" })).rejects.toMatchObject({ message: "下载失败：文件为空" });
  });

  it("reports a network failure with a translated message", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    await expect(api("/x")).rejects.toMatchObject({ kind: "network" });
    expect(toastError).toHaveBeenLastCalledWith("网络异常，请检查网络后重试", expect.anything());
  });

  it("a JSON body without an envelope on an HTTP error is an HTTP error", async () => {
    fakeApi({ "GET /j": () => json({ error: "x" }, 503) });
    await expect(api("/j")).rejects.toMatchObject({ code: 503, kind: "http" });
  });
});
