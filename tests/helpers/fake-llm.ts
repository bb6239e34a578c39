import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { estimateTokens } from "@yuelu/contracts";

/**
 * A FAKE OpenAI-compatible chat server for tests (issue 24 "Tests"): it checks the prompts it gets, answers
 * deterministically from them, and can be told to be slow, fail or answer garbage. Used by the worker tests
 * and the browser e2e; its API (`startFakeLlm`, `FakeLlm`, `FakeLlmMode`) stays as it is.
 *
 * It understands the worker's prompts (apps/worker/src/jobs/notes-prompts.ts): the system message's first line
 * `YUELU-TASK: <name>`, its `YUELU-LANG: zh|en` line (the language to answer in), transcript lines
 * `[index] speaker: text`, passages `[n] (mm:ss) speaker: text`, and the JSON the merge steps send.
 */

/**
 * "ok": answer; "garbage": answer text that is not JSON; "fenced": the JSON answer in a ```json fence with a
 * sentence before and after it; "prose": plain prose as small models write it, no JSON at all (a summary, an
 * answer, one translated line per segment; chapters as a numbered list); `{fail: n, status}`: the next n calls
 * answer HTTP `status` (default 500), then it answers again; `{delayMs}`: every answer waits that long.
 */
export type FakeLlmMode =
  | "ok"
  | "garbage"
  | "fenced"
  | "prose"
  | { fail: number; status?: number }
  | { delayMs: number };

/**
 * How it treats a request's `response_format` (docs/notes.md "Structured output"): "accept" (default, as vLLM,
 * llama.cpp server or Ollama do); "refuse": HTTP 400 naming it, for any response_format (a server that takes
 * none); "refuse-schema": only `json_schema`, with the 500 old llama.cpp servers answer; "refuse-bare": HTTP
 * 400 for any response_format, saying nothing of why.
 */
export type FakeLlmResponseFormat = "accept" | "refuse" | "refuse-schema" | "refuse-bare";

export interface FakeLlmMessage {
  role: string;
  content: string;
}

/** One request it received (also those it refused), in order. */
export interface FakeLlmRequest {
  /** the `YUELU-TASK:` name ("" when missing) */
  task: string;
  /** the JSON body as sent */
  body: { model?: string; messages?: FakeLlmMessage[]; max_tokens?: number; temperature?: number } & Record<
    string,
    unknown
  >;
  headers: IncomingHttpHeaders;
  /** the HTTP status it answered */
  status: number;
  /** estimated tokens of all the messages (contracts estimateTokens) */
  promptTokens: number;
}

export interface FakeLlmOptions {
  /** when given, requests must carry `Authorization: Bearer <key>` (else 401) */
  key?: string;
  /** when given, a request whose messages are estimated above it is refused with 400, as real servers do */
  contextTokens?: number;
  /** the mode it starts in (default "ok") */
  mode?: FakeLlmMode;
  /** answers a request itself (the assistant message's content) when it returns a string; else the default */
  answer?: (request: FakeLlmRequest) => string | undefined;
  /** how it treats `response_format` (default "accept") */
  responseFormat?: FakeLlmResponseFormat;
}

export interface FakeLlm {
  /** the server's root, e.g. http://127.0.0.1:PORT (LLM_URL) */
  url: string;
  requests: FakeLlmRequest[];
  mode(mode: FakeLlmMode): void;
  close(): Promise<void>;
}

export const FAKE_LLM_MODEL = "fake-model";

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const requests: FakeLlmRequest[] = [];
  let style: "ok" | "garbage" | "fenced" | "prose" = "ok";
  let delayMs = 0;
  let failLeft = 0;
  let failStatus = 500;
  const setMode = (mode: FakeLlmMode) => {
    if (typeof mode === "string") {
      style = mode;
      delayMs = 0;
      failLeft = 0;
    } else if ("fail" in mode) {
      failLeft = mode.fail;
      failStatus = mode.status ?? 500;
    } else {
      delayMs = mode.delayMs;
    }
  };
  setMode(options.mode ?? "ok");

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0]?.replace(/\/+$/, "");
    if (req.method === "GET" && path === "/v1/models") {
      if (options.key && req.headers.authorization !== `Bearer ${options.key}`) return send(res, 401, error("bad key"));
      return send(res, 200, { object: "list", data: [{ id: FAKE_LLM_MODEL, object: "model" }] });
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") return send(res, 404, error("no such route"));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: FakeLlmRequest["body"];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 400, error("body is not JSON"));
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const all = messages.map((m) => (typeof m?.content === "string" ? m.content : "")).join("\n");
    const request: FakeLlmRequest = {
      task: /^YUELU-TASK: *([\w-]+)/m.exec(messages[0]?.content ?? "")?.[1] ?? "",
      body,
      headers: req.headers,
      status: 200,
      promptTokens: estimateTokens(all),
    };
    requests.push(request);
    const refuse = (status: number, message: string) => {
      request.status = status;
      send(res, status, error(message));
    };
    if (options.key && req.headers.authorization !== `Bearer ${options.key}`) return refuse(401, "invalid api key");
    if (!body.model) return refuse(400, "model is required");
    if (!Array.isArray(body.messages) || messages.length === 0) return refuse(400, "messages must be an array");
    if (!request.task) return refuse(400, "fake: the system message has no YUELU-TASK: line");
    if (options.contextTokens && request.promptTokens > options.contextTokens) {
      return refuse(400, `fake: ${request.promptTokens} tokens exceed the context of ${options.contextTokens}`);
    }
    const refusal = formatRefusal(options.responseFormat ?? "accept", body.response_format);
    if (refusal) return refuse(refusal.status, refusal.message);
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (failLeft > 0) {
      failLeft--;
      return refuse(failStatus, `fake says ${failStatus}`);
    }
    const content =
      style === "garbage"
        ? "Sure! Here you go: not json"
        : (options.answer?.(request) ?? styled(style, request.task, messages));
    const promptTokens = request.promptTokens;
    const completionTokens = estimateTokens(content);
    send(res, 200, {
      id: `chatcmpl-fake-${requests.length}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) send(res, 500, error(e.message));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    mode: setMode,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The status and message a server that does not take this `response_format` answers, or null. */
function formatRefusal(how: FakeLlmResponseFormat, format: unknown): { status: number; message: string } | null {
  const type = (format as { type?: unknown } | undefined)?.type;
  if (how === "accept" || type === undefined) return null;
  if (how === "refuse") return { status: 400, message: `'response_format' is not supported (got ${String(type)})` };
  if (how === "refuse-bare") return { status: 400, message: "Bad Request" };
  return type === "json_schema"
    ? { status: 500, message: `response_format type must be one of "text" or "json_object", but got: ${type}` }
    : null;
}

/** The answer's text in the fake's current style. */
function styled(style: "ok" | "fenced" | "prose", task: string, messages: FakeLlmMessage[]): string {
  if (style === "prose") return proseAnswer(task, messages);
  const json = JSON.stringify(defaultAnswer(task, messages));
  return style === "fenced" ? `Here is the JSON you asked for:\n\`\`\`json\n${json}\n\`\`\`\nHope this helps!` : json;
}

function send(res: ServerResponse, status: number, body: unknown) {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function error(message: string) {
  return { error: { message, type: "fake_error" } };
}

/** A transcript line of a prompt: `[index] speaker: text`. */
export interface FakeLlmLine {
  index: number;
  speaker: string;
  text: string;
}

/** The transcript lines of the user messages, in order. */
export function promptLines(messages: FakeLlmMessage[]): FakeLlmLine[] {
  const lines: FakeLlmLine[] = [];
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const line of m.content.split("\n")) {
      const match = /^\[(\d+)\] (?!\()(.*?): (.*)$/.exec(line);
      if (match) lines.push({ index: Number(match[1]), speaker: match[2]!, text: match[3]! });
    }
  }
  return lines;
}

function languageOf(messages: FakeLlmMessage[], lines: FakeLlmLine[]): "zh" | "en" {
  const said = /^YUELU-LANG: *(zh|en)/m.exec(messages[0]?.content ?? "")?.[1];
  if (said === "zh" || said === "en") return said;
  return /[\u4e00-\u9fff]/.test(lines.map((l) => l.text).join("")) ? "zh" : "en";
}

/** The first {...} JSON object of the user messages (what merge steps send). */
function jsonOfPrompt(messages: FakeLlmMessage[]): Record<string, unknown> {
  for (const m of messages) {
    if (m.role !== "user") continue;
    const start = m.content.indexOf("{");
    const end = m.content.lastIndexOf("}");
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(m.content.slice(start, end + 1));
      } catch {}
    }
  }
  return {};
}

function defaultAnswer(task: string, messages: FakeLlmMessage[]): unknown {
  const lines = promptLines(messages);
  const lang = languageOf(messages, lines);
  switch (task) {
    case "chapters": {
      const chapters = [];
      for (let i = 0; i < lines.length; i += 8) {
        const first = lines[i]!;
        const title = lang === "zh" ? `话题${first.index}` : `Topic ${first.index}`;
        chapters.push({ from: first.index, title, gist: first.text });
      }
      return { chapters };
    }
    case "chapters-merge":
      return { chapters: (jsonOfPrompt(messages).chapters as unknown[]) ?? [] };
    case "summary": {
      const summary = lang === "zh" ? `共 ${lines.length} 段的摘要` : `Summary of ${lines.length} segments`;
      const said = lines.find((l) => /\bwill\b|I'll|要|负责/i.test(l.text));
      const due = said && (/周五/.test(said.text) ? "周五" : /friday/i.test(said.text) ? "Friday" : null);
      const todos = said ? [{ text: said.text, owner: said.speaker, due, segment: said.index }] : [];
      return { summary, todos };
    }
    case "summary-merge": {
      const summaries = (jsonOfPrompt(messages).summaries as string[]) ?? [];
      return { summary: summaries.join(lang === "zh" ? "" : " ") };
    }
    case "translation":
      return {
        translations: lines.map((l) => ({ i: l.index, text: `${lang === "zh" ? "ZH" : "EN"}: ${l.text}` })),
      };
    case "answer": {
      const passages = messages
        .filter((m) => m.role === "user")
        .flatMap((m) => m.content.split("\n"))
        .map((line) => /^\[(\d+)\] \((\d+:\d{2}(?::\d{2})?)\) (.*?): (.*)$/.exec(line))
        .filter((m) => m !== null)
        .map((m) => ({ n: Number(m[1]), text: m[4]! }));
      if (passages.length === 0) {
        return {
          answer: lang === "zh" ? "这些片段里没有提到。" : "The passages do not say.",
          citations: [],
        };
      }
      const cited = passages.slice(0, 2).map((p) => p.n);
      const marks = cited.map((n) => `[${n}]`).join("");
      const answer =
        lang === "zh"
          ? `根据录音${marks}：${passages[0]!.text}`
          : `According to the recording ${marks}: ${passages[0]!.text}`;
      return { answer, citations: cited };
    }
    default:
      return {};
  }
}

/**
 * What a small model that ignores the asked form writes: chatter, then prose. A summary says how many segments
 * it read and quotes the first; an answer cites [1] in its text; a translation is one "ZH: …"/"EN: …" line per
 * segment; chapters are a numbered list with no segment indexes (nothing a program can place).
 */
function proseAnswer(task: string, messages: FakeLlmMessage[]): string {
  const lines = promptLines(messages);
  const lang = languageOf(messages, lines);
  const zh = lang === "zh";
  switch (task) {
    case "summary":
      return zh
        ? `好的，以下是摘要：\n\n**本次会议**共 ${lines.length} 段，从“${lines[0]?.text ?? ""}”谈起。\n\n希望对你有帮助！`
        : `Sure! Here is the summary:\n\n**The meeting** ran over ${lines.length} segments, opening with "${lines[0]?.text ?? ""}"\n\nLet me know if you need anything else!`;
    case "summary-merge": {
      const summaries = (jsonOfPrompt(messages).summaries as string[]) ?? [];
      return `${zh ? "以下是合并后的摘要：" : "Here is the combined summary:"}\n${summaries.join(zh ? "" : " ")}`;
    }
    case "translation":
      return [
        zh ? "以下是译文：" : "Here is the translation:",
        ...lines.map((l) => `${zh ? "ZH" : "EN"}: ${l.text}`),
      ].join("\n");
    case "answer": {
      const first = /^\[1\] \([\d:]+\) .*?: (.*)$/m.exec(messages.find((m) => m.role === "user")?.content ?? "");
      return zh ? `根据录音[1]，${first?.[1] ?? ""}` : `According to the recording [1], ${first?.[1] ?? ""}`;
    }
    default:
      return zh
        ? "好的！这段录音可以分为三个部分：\n1. 开场\n2. 讨论\n3. 总结"
        : "Sure! The recording falls into three parts:\n1. Opening\n2. Discussion\n3. Wrap-up";
  }
}
