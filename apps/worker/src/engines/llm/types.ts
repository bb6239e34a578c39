/**
 * The LLM adapter's shape (docs/notes.md): one chat call to a configured OpenAI-compatible server. The notes
 * job only sees this interface, so tests and other servers plug in behind it.
 */

export interface LlmMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface LlmAnswer {
  text: string;
  usage: LlmUsage;
}

/** The JSON object a call asks back: its JSON Schema, named (response-format.ts `answerFormat`). */
export interface LlmAnswerFormat {
  name: string;
  schema: Record<string, unknown>;
}

export interface LlmChatOptions {
  maxTokens: number;
  signal?: AbortSignal;
  /** ask the server for structured output of this shape where it takes it (docs/notes.md "Structured output") */
  format?: LlmAnswerFormat;
}

export interface LlmClient {
  /** the model asked (LLM_MODEL) */
  readonly model: string;
  chat(messages: LlmMessage[], options: LlmChatOptions): Promise<LlmAnswer>;
}

/** The server could not be reached, timed out, was overloaded (429) or broke (5xx): another attempt may work. */
export class LlmUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LlmUnavailableError";
  }
}

/** The server refused the request (400/401/403/404: key, URL or model wrong): retrying cannot help. */
export class LlmRefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "LlmRefusedError";
  }
}

/** The answer was not the JSON asked for; the message says what was wrong with it. */
export class LlmBadAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LlmBadAnswerError";
  }
}
