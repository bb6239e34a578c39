import Fastify, { type FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { lazyChildLogger, OneLineRequestLog } from "../../apps/api/src/lib/hot-path.ts";
import { apiLogger } from "../../apps/api/src/lib/request-log.ts";

/**
 * The access line ("request completed") is written without making a pino child for the request, and
 * through the API logger's writer without redaction (lib/hot-path.ts, lib/request-log.ts): it must
 * read exactly as the request's own logger would have written it, and obey the route's log level.
 */
function appWith(fast: boolean) {
  const lines: Record<string, unknown>[] = [];
  const logger = apiLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new OneLineRequestLog(),
    ...(fast ? { childLoggerFactory: lazyChildLogger } : {}),
  });
  app.get("/thing/:id", async () => ({ ok: true }));
  app.get("/quiet", { logLevel: "warn" }, async () => ({ ok: true }));
  app.get("/talks", async (request) => {
    request.log.info({ step: 1 }, "working");
    return { ok: true };
  });
  return { app, lines };
}

/** A line without what differs from one request to the next. */
function stable(line: Record<string, unknown>) {
  const { time, pid, reqId, responseTime, ...rest } = line;
  expect(typeof time).toBe("number");
  expect(typeof reqId).toBe("string");
  if (line.msg === "request completed") expect(typeof responseTime).toBe("number");
  return { keys: Object.keys(line), ...rest, req: { ...(rest.req as object), remotePort: undefined } };
}

describe("the access line", () => {
  it("reads as the request's own logger writes it, fields in the same order", async () => {
    const lazy = appWith(true);
    const plain = appWith(false);
    for (const { app } of [lazy, plain]) {
      const headers = { cookie: "sid=secret-session", authorization: "Bearer secret-key" };
      await app.inject({ method: "GET", url: "/thing/7?x=1", headers });
      await app.inject({ method: "GET", url: "/talks" });
    }
    expect(lazy.lines.map(stable)).toEqual(plain.lines.map(stable));
    expect(lazy.lines[0]?.msg).toBe("request completed");
    expect(lazy.lines[0]?.req).toMatchObject({ method: "GET", url: "/thing/7?x=1" });
    expect(lazy.lines[0]?.res).toEqual({ statusCode: 200 });
    // the line of a request that logged before is written by the logger that request made
    expect(lazy.lines.slice(1).map((l) => l.msg)).toEqual(["working", "request completed"]);
    expect(lazy.lines[1]?.reqId).toBe(lazy.lines[2]?.reqId);
    expect(JSON.stringify(lazy.lines)).not.toContain("secret");
  });

  it("is not written where the route logs at warn", async () => {
    const { app, lines } = appWith(true);
    await app.inject({ method: "GET", url: "/quiet" });
    await app.inject({ method: "GET", url: "/thing/1" });
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual(["/thing/1"]);
  });
});
