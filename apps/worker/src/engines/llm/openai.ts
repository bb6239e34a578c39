import { estimateTokens } from "@yuelu/contracts";
import { llmEndpoint } from "@yuelu/runtime";
import type { CallLimit } from "./limit.ts";
import {
  nextLevel,
  processFormatMemory,
  type ResponseFormatMemory,
  refusesFormat,
  responseFormatOf,
} from "./response-format.ts";
import {
  type LlmAnswer,
  LlmBadAnswerError,
  type LlmChatOptions,
  type LlmClient,
  type LlmMessage,
  LlmRefusedError,
  LlmUnavailableError,
} from "./types.ts";

export interface OpenAiLlmOptions {
  /** LLM_URL: the server's root, its /v1, or the full chat URL (runtime llmEndpoint) */
  url: string;
  key?: string | undefined;
  model: string;
  /** per call (ms) */
  timeoutMs: number;
  /** calls at once in this process */
  limit: CallLimit;
  /** which response_format each server takes (default: the process's) */
  formats?: ResponseFormatMemory;
}

interface ChatCompletion {
  choices?: { message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
}

/** The server's reply as it came: its status and body. */
interface Reply {
  status: number;
  text: string;
}

/**
 * An OpenAI-compatible chat server (Ollama, vLLM, llama.cpp server, a cloud API): POST /v1/chat/completions,
 * low temperature (notes should say what was said, not invent). A call that names its answer's format asks for
 * structured output at the level the server is known to take (response-format.ts), one level lower at once when
 * that is refused. Failures are sorted for the job: worth another attempt (unreachable, timeout, 429, 5xx) or
 * not (400/401/403/404). The key is never put in a message.
 */
export class OpenAiLlm implements LlmClient {
  constructor(private readonly options: OpenAiLlmOptions) {}

  get model(): string {
    return this.options.model;
  }

  chat(messages: LlmMessage[], options: LlmChatOptions): Promise<LlmAnswer> {
    return this.options.limit.run(() => this.call(messages, options));
  }

  private async call(messages: LlmMessage[], options: LlmChatOptions): Promise<LlmAnswer> {
    const endpoint = llmEndpoint(this.options.url, "chat/completions");
    const { format } = options;
    if (!format) return this.read(endpoint, await this.post(endpoint, messages, options, undefined), messages);
    const memory = this.options.formats ?? processFormatMemory;
    const server = `${endpoint} ${this.options.model}`;
    let { level, confirmed } = memory.current(server);
    for (;;) {
      const reply = await this.post(endpoint, messages, options, responseFormatOf(level, format));
      if (level !== "none" && !ok(reply.status) && refusesFormat(reply.status, reply.text, confirmed)) {
        // the server does not take this response_format: the same call once more, one level lower
        level = nextLevel(level);
        confirmed = false;
        continue;
      }
      if (ok(reply.status)) memory.answered(server, level);
      return this.read(endpoint, reply, messages);
    }
  }

  private async post(
    endpoint: string,
    messages: LlmMessage[],
    options: LlmChatOptions,
    responseFormat: Record<string, unknown> | undefined,
  ): Promise<Reply> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const res = await fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.options.key ? { authorization: `Bearer ${this.options.key}` } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          messages,
          temperature: 0.2,
          max_tokens: options.maxTokens,
          stream: false,
          ...(responseFormat ? { response_format: responseFormat } : {}),
        }),
        signal,
      });
      return { status: res.status, text: await res.text() };
    } catch (error) {
      // the caller's own abort is not the server's fault: pass it on as it is
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (timeout.aborted) {
        throw new LlmUnavailableError(
          `the language model at ${endpoint} did not answer within ${Math.round(this.options.timeoutMs / 1000)} s`,
        );
      }
      const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
      throw new LlmUnavailableError(`the language model at ${endpoint} could not be reached: ${why}`);
    }
  }

  private read(endpoint: string, reply: Reply, messages: LlmMessage[]): LlmAnswer {
    const { status, text } = reply;
    if ([400, 401, 403, 404].includes(status)) {
      // configuration (key, URL, model name) or a request it will never take: another attempt cannot help
      throw new LlmRefusedError(
        `the language model at ${endpoint} answered HTTP ${status}: check LLM_URL, LLM_KEY and LLM_MODEL (${snippet(text)})`,
        status,
      );
    }
    if (!ok(status)) {
      throw new LlmUnavailableError(`the language model at ${endpoint} answered HTTP ${status}: ${snippet(text)}`);
    }
    let body: ChatCompletion;
    try {
      body = JSON.parse(text) as ChatCompletion;
    } catch {
      throw new LlmBadAnswerError(`the language model's reply is not JSON: ${snippet(text)}`);
    }
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== "string") {
      throw new LlmBadAnswerError(`the language model's reply has no choices[0].message.content: ${snippet(text)}`);
    }
    return { text: content, usage: usageOf(body.usage, messages, content) };
  }
}

const ok = (status: number) => status >= 200 && status < 300;

/** The server's count when it gives one (most do); else the same estimate the budget reserved with. */
function usageOf(usage: ChatCompletion["usage"], messages: LlmMessage[], content: string) {
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);
  const promptTokens = count(usage?.prompt_tokens) ?? estimateTokens(messages.map((m) => m.content).join("\n"));
  const completionTokens = count(usage?.completion_tokens) ?? estimateTokens(content);
  const totalTokens = count(usage?.total_tokens) ?? promptTokens + completionTokens;
  return { promptTokens, completionTokens, totalTokens };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
