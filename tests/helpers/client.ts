/**
 * An HTTP client of a running Yuelu server (fetch), for benches and tests that drive the real
 * product rather than an in-process app: sign in through the account service, then call the API
 * with the envelope unwrapped.
 */

export class EnvelopeError extends Error {
  constructor(
    readonly url: string,
    readonly statusCode: number,
    readonly statusMsg: string,
  ) {
    super(`${url}: ${statusCode} ${statusMsg}`);
  }
}

export interface ApiClient {
  /** the session's Cookie header (sid, userid, name) */
  cookie: string;
  userId: number;
  /** one call; resolves with `data`, throws EnvelopeError on any other status code */
  api<T = unknown>(method: string, url: string, body?: unknown): Promise<T>;
  /** the same session against another node of the install (another origin) */
  at(base: string): ApiClient;
}

/**
 * Signs `phone` in on `base` (an origin such as http://127.0.0.1:8080). The console SMS provider
 * hands the code back to a client on the server's own machine, which benches and tests are.
 */
export async function signInOverHttp(base: string, phone: string): Promise<ApiClient> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const sent = (await (await post("/account/api/sms/send", { phone })).json()) as {
    status_code: number;
    data?: { devCode?: string };
  };
  if (!sent.data?.devCode) throw new Error(`no code for ${phone}: ${JSON.stringify(sent)}`);
  const login = await post("/account/api/login", { phone, code: sent.data.devCode });
  const answer = (await login.json()) as { status_code: number; data: { userId: number } };
  if (answer.status_code !== 1) throw new Error(`login failed: ${JSON.stringify(answer)}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return sessionClient(base, cookie, answer.data.userId);
}

function sessionClient(base: string, cookie: string, userId: number): ApiClient {
  async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
    const form = body instanceof FormData;
    const res = await fetch(`${base}/voice_yuelu${url}`, {
      method,
      headers: { cookie, ...(body !== undefined && !form ? { "content-type": "application/json" } : {}) },
      body: form ? body : body !== undefined ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { status_code: number; status_msg: string; data: T };
    if (json.status_code !== 1) throw new EnvelopeError(url, json.status_code, json.status_msg);
    return json.data;
  }
  return { cookie, userId, api, at: (other) => sessionClient(other, cookie, userId) };
}
