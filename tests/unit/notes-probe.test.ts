import { createServer } from "node:net";
import { engineOverview } from "@yuelu/domain";
import { forgetLlmProbes, PROBE_CACHE_MS, probeLlm } from "@yuelu/runtime";
import { beforeEach, describe, expect, it } from "vitest";

/** Engine status of the notes' LLM (docs/notes.md "Engine status"): GET /v1/models, 3 s, kept 30 s. */

const config = { LLM_URL: "http://llm.example:11434/v1", LLM_KEY: "sk-test", LLM_MODEL: "qwen2.5:7b-instruct" };

/** A fake fetch (test double) answering `status`, recording what it was asked. */
function fakeFetch(status: number) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return { ok: status >= 200 && status < 300, status };
  };
  return Object.assign(fn, { calls });
}

beforeEach(() => forgetLlmProbes());

describe("probeLlm", () => {
  it("not configured: says so, and asks nothing of anyone", async () => {
    const fetch = fakeFetch(200);
    expect(await probeLlm({ LLM_URL: undefined, LLM_KEY: undefined, LLM_MODEL: "m" }, fetch)).toEqual({
      configured: false,
      model: null,
      host: null,
      answering: null,
      problem: null,
      checkedAt: null,
    });
    expect(fetch.calls).toHaveLength(0);
  });

  it("asks GET {url}/v1/models with the key, names host and model, and keeps the answer 30 s", async () => {
    const fetch = fakeFetch(200);
    let now = Date.parse("2026-03-01T08:00:00Z");
    const status = await probeLlm(config, fetch, { now: () => now });
    expect(status).toEqual({
      configured: true,
      model: "qwen2.5:7b-instruct",
      host: "llm.example:11434",
      answering: true,
      problem: null,
      checkedAt: "2026-03-01T08:00:00.000Z",
    });
    expect(fetch.calls[0]!.url).toBe("http://llm.example:11434/v1/models");
    expect(fetch.calls[0]!.init.headers).toEqual({ authorization: "Bearer sk-test" });
    now += PROBE_CACHE_MS - 1;
    await probeLlm(config, fetch, { now: () => now });
    expect(fetch.calls).toHaveLength(1);
    now += 2;
    await probeLlm(config, fetch, { now: () => now });
    expect(fetch.calls).toHaveLength(2);
  });

  it("a refusal, a closed port and a silent server each give a short reason", async () => {
    expect(await probeLlm(config, fakeFetch(401))).toMatchObject({
      answering: false,
      problem: "HTTP 401 (check LLM_KEY)",
    });
    forgetLlmProbes();
    expect(await probeLlm(config, fakeFetch(503))).toMatchObject({ answering: false, problem: "HTTP 503" });

    // a port nothing listens on
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const closed = await probeLlm({ ...config, LLM_URL: `http://127.0.0.1:${port}` });
    expect(closed).toMatchObject({ configured: true, answering: false, problem: "connection refused" });

    // a server that accepts and never answers: the probe gives up after 3 s
    const sockets: import("node:net").Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const started = Date.now();
    const slow = await probeLlm({
      ...config,
      LLM_URL: `http://127.0.0.1:${(silent.address() as { port: number }).port}`,
    });
    for (const socket of sockets) socket.destroy();
    silent.close();
    expect(slow).toMatchObject({ answering: false, problem: "timed out" });
    expect(Date.now() - started).toBeLessThan(6000);
  });
});

describe("the operator console's engine overview", () => {
  it("carries the LLM's status; one set but not answering is listed as missing, one not set is not", async () => {
    const down = await probeLlm(config, fakeFetch(502), { fresh: true });
    const overview = engineOverview([], [], down);
    expect(overview.llm).toEqual(down);
    expect(overview.missing).toContainEqual({
      what: "llm llm.example:11434 qwen2.5:7b-instruct",
      problem: "HTTP 502",
      install: expect.stringContaining("LLM_URL"),
    });
    const unset = await probeLlm({ LLM_URL: undefined, LLM_KEY: undefined, LLM_MODEL: "m" });
    expect(engineOverview([], [], unset).missing.map((m) => m.what)).toEqual(["worker"]);
    forgetLlmProbes();
    const up = await probeLlm(config, fakeFetch(200));
    expect(engineOverview([], [], up).missing.map((m) => m.what)).toEqual(["worker"]);
  });
});
