import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  answerFormat,
  CallLimit,
  configuredLlm,
  FORMAT_MEMORY_MS,
  LlmBadAnswerError,
  type LlmMessage,
  LlmRefusedError,
  LlmUnavailableError,
  OpenAiLlm,
  parseJsonAnswer,
  proseOf,
  ResponseFormatMemory,
  refusesFormat,
} from "../../apps/worker/src/engines/llm/index.ts";
import { ZChaptersAnswer, ZSummaryAnswer } from "../../apps/worker/src/jobs/notes-prompts.ts";
import { summaryOfReply } from "../../apps/worker/src/jobs/notes-summary.ts";
import { translationOfReply } from "../../apps/worker/src/jobs/notes-translation.ts";
import { type FakeLlm, type FakeLlmResponseFormat, startFakeLlm } from "../helpers/fake-llm.ts";

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

describe("answers that are not bare JSON (issue 41)", () => {
  const schema = z.object({ summary: z.string(), n: z.number() });

  it("reads JSON after a reasoning model's thinking, and the first object of the asked shape", () => {
    const thinking = '<think>Maybe {"summary":"draft","n":0}? No.</think>\n```json\n{"summary":"x","n":1}\n```';
    expect(parseJsonAnswer(thinking, schema)).toEqual({ summary: "x", n: 1 });
    expect(parseJsonAnswer('For example {"a":1}. The answer: {"summary":"z","n":4}', schema)).toEqual({
      summary: "z",
      n: 4,
    });
  });

  it("takes a bare top-level array of objects for an object whose only field is an array", () => {
    const chapters =
      '```json\n[{"from":0,"title":"Budget","gist":"Money."},{"from":5,"title":"Hiring","gist":""}]\n```';
    expect(parseJsonAnswer(chapters, ZChaptersAnswer).chapters.map((c) => c.from)).toEqual([0, 5]);
    expect(() => parseJsonAnswer("[0] Ann: we talked about money", ZChaptersAnswer)).toThrow(/holds no JSON object/);
  });

  it("proseOf: the substance without chatter, Markdown or thinking; null for a refusal or next to nothing", () => {
    expect(
      proseOf(
        "Sure! Here is the summary:\n\n## Summary\n**The team** agreed to move the launch to May.\n\nLet me know if you need anything else!",
        500,
      ),
    ).toBe("The team agreed to move the launch to May.");
    expect(
      proseOf("<think>先想想</think>好的，以下是摘要：\n团队决定把发布推迟到五月，预算不变。\n希望对你有帮助！", 500),
    ).toBe("团队决定把发布推迟到五月，预算不变。");
    expect(proseOf("Summary: The budget was approved and Bob books the room.", 500)).toBe(
      "The budget was approved and Bob books the room.",
    );
    expect(proseOf("I'm sorry, but I can't summarise this transcript for you.", 500)).toBeNull();
    expect(proseOf("Sure! Here you go: not json", 500)).toBeNull();
    expect(proseOf('```json\n{"summary": 1}\n```', 500)).toBeNull();
    // bounded, at a sentence end when one is near
    expect(proseOf("The first point was made. The second point took much longer to explain.", 40)).toBe(
      "The first point was made.",
    );
  });

  it("a summary from a reply that is not the asked JSON: a usable `summary` field first, else the prose", () => {
    expect(summaryOfReply('{"summary":"The team agreed.","todos":[{"text":"no segment"}]}')).toEqual({
      summary: "The team agreed.",
      todos: [],
    });
    expect(summaryOfReply("Here's a summary: the team agreed to ship in May.")).toEqual({
      summary: "the team agreed to ship in May.",
      todos: [],
    });
    expect(summaryOfReply("OK.")).toBeUndefined();
    expect(() => parseJsonAnswer('{"summary":"The team agreed.","todos":[{"text":"x"}]}', ZSummaryAnswer)).toThrow(
      /wrong shape/,
    );
  });

  it("a translation from plain lines: marked [i], or one a segment in order; merged or split lines are not guessed", () => {
    const speakers = [{ spkName: "Ann" }, { spkName: "Bob" }, { spkName: "Ann" }];
    expect(translationOfReply("Here is the translation:\n[1] 你好\n[2] Ann: 再见", [1, 2], speakers)).toEqual({
      translations: [
        { i: 1, text: "你好" },
        { i: 2, text: "再见" },
      ],
    });
    expect(
      translationOfReply("好的，以下是译文：\n你好\nBob：谢谢\n再见\n希望对你有帮助！", [0, 1, 2], speakers),
    ).toEqual({
      translations: [
        { i: 0, text: "你好" },
        { i: 1, text: "谢谢" },
        { i: 2, text: "再见" },
      ],
    });
    expect(translationOfReply("你好，谢谢\n再见", [0, 1, 2], speakers)).toBeUndefined();
  });
});

describe("structured output (issue 41)", () => {
  it("derives the answer's JSON schema from its zod schema, in the subset strict mode takes", () => {
    const format = answerFormat("summary-merge", ZSummaryAnswer);
    expect(format.name).toBe("summary-merge");
    expect(answerFormat("a task/with spaces", ZSummaryAnswer).name).toBe("a_task_with_spaces");
    expect(format.schema).toEqual({
      type: "object",
      properties: {
        summary: { type: "string" },
        todos: {
          type: "array",
          items: {
            type: "object",
            properties: {
              text: { type: "string" },
              owner: { type: ["string", "null"] },
              due: { type: ["string", "null"] },
              segment: { type: "integer" },
            },
            required: ["text", "owner", "due", "segment"],
            additionalProperties: false,
          },
        },
      },
      required: ["summary", "todos"],
      additionalProperties: false,
    });
  });

  it("refusesFormat: a reply naming the format, or a bare 400/422 from a server not yet seen to take it", () => {
    expect(refusesFormat(400, `{"error":"'response_format.type' must be 'json_schema' or 'text'"}`, true)).toBe(true);
    expect(refusesFormat(500, 'response_format type must be one of "text" or "json_object"', true)).toBe(true);
    expect(refusesFormat(422, "Unprocessable Entity", false)).toBe(true);
    expect(refusesFormat(400, "the prompt is longer than the context", true)).toBe(false);
    expect(refusesFormat(401, "invalid api key", false)).toBe(false);
    expect(refusesFormat(503, "overloaded", false)).toBe(false);
  });

  /** A client of a server that treats response_format as told, with its own memory and clock. */
  async function refusing(how: FakeLlmResponseFormat) {
    const server = await startFakeLlm({ responseFormat: how });
    let now = 1_000_000;
    const formats = new ResponseFormatMemory(FORMAT_MEMORY_MS, () => now);
    const llm = (model = "small-model") =>
      new OpenAiLlm({ url: server.url, model, timeoutMs: 5000, limit: new CallLimit(2), formats });
    const format = answerFormat("summary", ZSummaryAnswer);
    const sent = () => server.requests.map((r) => [r.status, (r.body.response_format as { type: string })?.type]);
    return { server, llm, format, sent, later: (ms: number) => (now += ms) };
  }

  it("sends json_schema first; a bare refusal steps down at once, and the level that answered is remembered per server+model for a while", async () => {
    const { server, llm, format, sent, later } = await refusing("refuse-bare");
    try {
      const answer = await llm().chat(asked, { maxTokens: 300, format });
      expect(JSON.parse(answer.text)).toMatchObject({ summary: "Summary of 2 segments" });
      expect(server.requests[0]!.body.response_format).toEqual({
        type: "json_schema",
        json_schema: { name: "summary", schema: format.schema, strict: true },
      });
      await llm().chat(asked, { maxTokens: 300, format });
      // another model on the same server is asked afresh; after FORMAT_MEMORY_MS the strongest level again
      await llm("other-model").chat(asked, { maxTokens: 300, format });
      later(FORMAT_MEMORY_MS + 1);
      await llm().chat(asked, { maxTokens: 300, format });
      // a call that asks for no format sends none
      await llm().chat(asked, { maxTokens: 300 });
      expect(sent()).toEqual([
        [400, "json_schema"],
        [400, "json_object"],
        [200, undefined],
        [200, undefined],
        [400, "json_schema"],
        [400, "json_object"],
        [200, undefined],
        [400, "json_schema"],
        [400, "json_object"],
        [200, undefined],
        [200, undefined],
      ]);
    } finally {
      await server.close();
    }
  });

  it("a bare 400 from a server known to take the format is the request's fault: refused, not asked again", async () => {
    const { server, llm, format, sent } = await refusing("accept");
    try {
      await llm().chat(asked, { maxTokens: 300, format });
      server.mode({ fail: 1, status: 400 });
      expect(await rejection(llm().chat(asked, { maxTokens: 300, format }))).toBeInstanceOf(LlmRefusedError);
      expect(sent()).toEqual([
        [200, "json_schema"],
        [400, "json_schema"],
      ]);
    } finally {
      await server.close();
    }
  });

  it("a refusal at every level is refused and remembers nothing", async () => {
    const { server, llm, format, sent } = await refusing("accept");
    try {
      server.mode({ fail: 3, status: 400 });
      expect(await rejection(llm().chat(asked, { maxTokens: 300, format }))).toBeInstanceOf(LlmRefusedError);
      await llm().chat(asked, { maxTokens: 300, format });
      expect(sent()).toEqual([
        [400, "json_schema"],
        [400, "json_object"],
        [400, undefined],
        [200, "json_schema"],
      ]);
    } finally {
      await server.close();
    }
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
