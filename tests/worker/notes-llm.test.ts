import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CallLimit,
  configuredLlm,
  LlmBadAnswerError,
  type LlmMessage,
  LlmRefusedError,
  LlmUnavailableError,
  OpenAiLlm,
  parseJsonAnswer,
} from "../../apps/worker/src/engines/llm/index.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";

const KEY = "sk-test-secret-key-0123456789";
const asked: LlmMessage[] = [
  { role: "system", content: "YUELU-TASK: summary\nYUELU-LANG: en\nSummarise." },
  { role: "user", content: "[0] Ann: We will ship on Friday.\n[1] Bob: Fine." },
];

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ key: KEY });
});
afterAll(async () => {
  await fake.close();
});

const client = (options: { url?: string; key?: string; timeoutMs?: number; limit?: CallLimit } = {}) =>
  new OpenAiLlm({
    url: options.url ?? fake.url,
    key: "key" in options ? options.key : KEY,
    model: "fake-model",
    timeoutMs: options.timeoutMs ?? 5000,
    limit: options.limit ?? new CallLimit(4),
  });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("parseJsonAnswer", () => {
  const schema = z.object({ summary: z.string(), n: z.number() });

  it("takes the JSON object out of fences and prose, strings with braces included", () => {
    expect(parseJsonAnswer('```json\n{"summary":"a {b} \\"c\\"","n":1}\n```', schema)).toEqual({
      summary: 'a {b} "c"',
      n: 1,
    });
    expect(parseJsonAnswer('Sure! Here it is: {"summary":"x","n":2} Hope that helps {:)}', schema)).toEqual({
      summary: "x",
      n: 2,
    });
    // a balanced {...} that is not JSON before the real one is passed over
    expect(parseJsonAnswer('Notes {draft} then {"summary":"y","n":3}', schema)).toEqual({ summary: "y", n: 3 });
  });

  it("says what was wrong: no object, unparsable, wrong shape", () => {
    expect(() => parseJsonAnswer("Sure! Here you go: not json", schema)).toThrow(/holds no JSON object/);
    expect(() => parseJsonAnswer("{summary: 'x'}", schema)).toThrow(/does not parse/);
    const wrong = (() => {
      try {
        parseJsonAnswer('{"summary":"x","n":"two"}', schema);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(wrong).toBeInstanceOf(LlmBadAnswerError);
    expect(wrong?.message).toMatch(/wrong shape \(n: /);
  });
});

describe("OpenAiLlm against the fake server", () => {
  it("sends model, messages, temperature and the bearer key, and reads the usage", async () => {
    const before = fake.requests.length;
    const answer = await client().chat(asked, { maxTokens: 300 });
    const got = fake.requests[before]!;
    expect(got.task).toBe("summary");
    expect(got.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(got.body).toMatchObject({ model: "fake-model", temperature: 0.2, max_tokens: 300 });
    expect(JSON.parse(answer.text)).toMatchObject({ summary: "Summary of 2 segments" });
    expect(JSON.parse(answer.text).todos[0]).toMatchObject({ owner: "Ann", due: "Friday", segment: 0 });
    expect(answer.usage.totalTokens).toBe(answer.usage.promptTokens + answer.usage.completionTokens);
    expect(answer.usage.promptTokens).toBe(got.promptTokens);
  });

  it("reaches /v1/chat/completions whether LLM_URL is the root, its /v1 or the full URL", async () => {
    for (const url of [fake.url, `${fake.url}/v1`, `${fake.url}/v1/chat/completions`]) {
      await expect(client({ url }).chat(asked, { maxTokens: 100 })).resolves.toHaveProperty("text");
    }
  });

  it("sorts failures: 401/400 refused (naming the status, never the key), 5xx/429/unreachable/timeout unavailable", async () => {
    const refused = await rejection(client({ key: "sk-wrong-key-9876" }).chat(asked, { maxTokens: 100 }));
    expect(refused).toBeInstanceOf(LlmRefusedError);
    expect(refused.message).toMatch(/HTTP 401/);
    expect(refused.message).not.toContain("sk-wrong-key-9876");
    expect(refused.message).not.toContain(KEY);

    fake.mode({ fail: 1, status: 400 });
    expect(await rejection(client().chat(asked, { maxTokens: 100 }))).toBeInstanceOf(LlmRefusedError);
    for (const status of [500, 503, 429]) {
      fake.mode({ fail: 1, status });
      const error = await rejection(client().chat(asked, { maxTokens: 100 }));
      expect(error).toBeInstanceOf(LlmUnavailableError);
      expect(error.message).toContain(`HTTP ${status}`);
    }

    const closed = await startFakeLlm();
    await closed.close();
    const unreachable = await rejection(client({ url: closed.url }).chat(asked, { maxTokens: 100 }));
    expect(unreachable).toBeInstanceOf(LlmUnavailableError);
    expect(unreachable.message).toMatch(/could not be reached/);

    fake.mode({ delayMs: 1500 });
    try {
      const slow = await rejection(client({ timeoutMs: 200 }).chat(asked, { maxTokens: 100 }));
      expect(slow).toBeInstanceOf(LlmUnavailableError);
      expect(slow.message).toMatch(/did not answer within/);
    } finally {
      fake.mode("ok");
    }
  });

  it("estimates the usage when the server gives none, and rejects a reply without content", async () => {
    let reply: object = { choices: [{ message: { role: "assistant", content: '{"ok":true}' } }] };
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const answer = await client({ url }).chat(asked, { maxTokens: 100 });
      expect(answer.usage.promptTokens).toBeGreaterThan(10);
      expect(answer.usage.completionTokens).toBe(3);
      reply = { choices: [] };
      const error = await rejection(client({ url }).chat(asked, { maxTokens: 100 }));
      expect(error).toBeInstanceOf(LlmBadAnswerError);
      expect(error.message).toMatch(/no choices\[0\]\.message\.content/);
    } finally {
      server.close();
    }
  });

  it("makes at most LLM_CONCURRENCY calls at once in a process", async () => {
    const slowFake = await startFakeLlm({ mode: { delayMs: 150 } });
    const limit = new CallLimit(2);
    let most = 0;
    const watcher = setInterval(() => {
      most = Math.max(most, limit.active);
    }, 5);
    try {
      const llm = client({ url: slowFake.url, key: undefined, limit });
      const started = Date.now();
      await Promise.all(Array.from({ length: 5 }, () => llm.chat(asked, { maxTokens: 50 })));
      // five calls of 150 ms two at a time: three rounds
      expect(Date.now() - started).toBeGreaterThanOrEqual(430);
      expect(most).toBe(2);
      expect(slowFake.requests).toHaveLength(5);
    } finally {
      clearInterval(watcher);
      await slowFake.close();
    }
  });

  it("configuredLlm: none without LLM_URL, else a client with the configured model", () => {
    const base = { DATABASE_URL: "postgresql://localhost/x", NODE_ENV: "test" };
    expect(configuredLlm(loadConfig(base))).toBeNull();
    const llm = configuredLlm(loadConfig({ ...base, LLM_URL: fake.url, LLM_MODEL: "qwen-test" }));
    expect(llm?.model).toBe("qwen-test");
  });
});

describe("the fake server itself", () => {
  it("refuses a request without the YUELU-TASK line or model, lists its model, and answers garbage when told", async () => {
    const open = await startFakeLlm();
    try {
      const post = (body: object) =>
        fetch(`${open.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      expect((await post({ model: "m", messages: [{ role: "user", content: "hi" }] })).status).toBe(400);
      expect((await post({ messages: asked })).status).toBe(400);
      expect(await (await fetch(`${open.url}/v1/models`)).json()).toMatchObject({ data: [{ id: "fake-model" }] });
      open.mode("garbage");
      const garbage = (await (await post({ model: "m", messages: asked })).json()) as {
        choices: { message: { content: string } }[];
      };
      expect(garbage.choices[0]!.message.content).toBe("Sure! Here you go: not json");
      expect(open.requests.map((r) => r.status)).toEqual([400, 400, 200]);
    } finally {
      await open.close();
    }
  });
});
