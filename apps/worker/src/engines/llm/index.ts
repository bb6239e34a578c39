import type { Config } from "@yuelu/runtime";
import { processCallLimit } from "./limit.ts";
import { OpenAiLlm } from "./openai.ts";
import type { LlmClient } from "./types.ts";

export { parseJsonAnswer, withoutThinking } from "./json.ts";
export { CallLimit, processCallLimit } from "./limit.ts";
export { OpenAiLlm } from "./openai.ts";
export { MIN_PROSE_LETTERS, proseLines, proseOf, replyLines } from "./prose.ts";
export {
  answerFormat,
  FORMAT_LEVELS,
  FORMAT_MEMORY_MS,
  type FormatLevel,
  processFormatMemory,
  ResponseFormatMemory,
  refusesFormat,
} from "./response-format.ts";
export * from "./types.ts";

/** The operator's model (LLM_URL …), or null when none is configured: then nothing is ever sent anywhere. */
export function configuredLlm(
  config: Pick<Config, "LLM_URL" | "LLM_KEY" | "LLM_MODEL" | "LLM_TIMEOUT_SECONDS" | "LLM_CONCURRENCY">,
): LlmClient | null {
  if (!config.LLM_URL) return null;
  return new OpenAiLlm({
    url: config.LLM_URL,
    key: config.LLM_KEY,
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_SECONDS * 1000,
    limit: processCallLimit(config.LLM_CONCURRENCY),
  });
}
