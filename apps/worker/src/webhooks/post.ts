import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { type AttemptOutcome, hostOf, isPublicAddress, publicOnlyLookup, RefusedAddressError } from "@yuelu/domain";

/** One attempt's HTTP call (docs/integrators.md "Webhooks"). */

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Of the receiver's answer, this much is kept in the delivery log. */
const BODY_SNIPPET_BYTES = 1024;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** WEBHOOK_ALLOW_PRIVATE: skip the address check */
  allowPrivate: boolean;
  timeoutMs?: number;
}

/**
 * POSTs the body and reports what came back. Never throws: a refused address, a timeout or a reset
 * connection is an outcome with `statusCode: null`. Redirects are not followed (a 3xx is a failed
 * attempt: a redirect could lead anywhere, the private network included). The connection goes to
 * an address checked by publicOnlyLookup, so a DNS answer that changed since registration is
 * caught here (rebinding).
 */
export async function postWebhook(request: WebhookRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { statusCode: null, responseBody: "", error: "invalid URL", durationMs: 0 };
  }
  const host = hostOf(url);
  if (!request.allowPrivate && isIP(host) && !isPublicAddress(host)) {
    return { statusCode: null, responseBody: "", error: new RefusedAddressError(host).message, durationMs: 0 };
  }
  const client = url.protocol === "https:" ? https : url.protocol === "http:" ? http : undefined;
  if (!client) return { statusCode: null, responseBody: "", error: "not an http(s) URL", durationMs: 0 };

  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = client.request(
      url,
      {
        method: "POST",
        headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
        // a fresh connection per attempt, to an address checked now
        agent: false,
        ...(request.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const body = Buffer.concat(chunks).subarray(0, BODY_SNIPPET_BYTES).toString("utf8");
          finish({ statusCode: res.statusCode ?? null, responseBody: body, error: "" });
          res.destroy();
        };
        res.on("data", (chunk: Buffer) => {
          if (size < BODY_SNIPPET_BYTES) chunks.push(chunk);
          size += chunk.length;
          // enough read: the rest of a large answer is not waited for
          if (size >= BODY_SNIPPET_BYTES) done();
        });
        res.on("end", done);
        res.on("error", done);
      },
    );
    const timeoutMs = request.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    const timer = setTimeout(() => {
      finish({ statusCode: null, responseBody: "", error: `no answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => {
      finish({ statusCode: null, responseBody: "", error: describe(error) });
    });
    req.end(request.body);
  });
}

function describe(error: NodeJS.ErrnoException): string {
  if (error instanceof RefusedAddressError) return error.message;
  if (error.code === "ENOTFOUND") return "the host does not resolve";
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
