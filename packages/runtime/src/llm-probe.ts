import type { Config } from "./config.ts";
import { llmEndpoint, llmHost } from "./llm-url.ts";

/**
 * Whether the configured language model answers (docs/notes.md "Engine status"): GET {LLM_URL}/v1/models with
 * the key, as every OpenAI-compatible server (Ollama, vLLM, llama.cpp server, cloud APIs) offers it. Pages
 * ask for the notes of a record often, so one answer is kept per process for PROBE_CACHE_MS — it is only what
 * the page shows; the jobs find out for themselves.
 */

/** contracts' ZLlmStatus (runtime does not depend on contracts; the API's response schema checks the match) */
export interface LlmStatus {
  configured: boolean;
  model: string | null;
  host: string | null;
  answering: boolean | null;
  problem: string | null;
  checkedAt: string | null;
}

export const PROBE_TIMEOUT_MS = 3000;
export const PROBE_CACHE_MS = 30_000;

type LlmConfig = Pick<Config, "LLM_URL" | "LLM_KEY" | "LLM_MODEL">;
type FetchLike = (url: string, init: RequestInit) => Promise<Pick<Response, "ok" | "status">>;

const cache = new Map<string, { at: number; status: LlmStatus }>();

const notConfigured: LlmStatus = {
  configured: false,
  model: null,
  host: null,
  answering: null,
  problem: null,
  checkedAt: null,
};

/** A short English reason a call failed: what an operator needs to look at. */
function reasonOf(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string }; code?: string; message?: string };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "timed out";
  const code = e?.cause?.code ?? e?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNRESET") return "connection reset";
  if (code) return String(code).toLowerCase();
  return (e?.message ?? "unreachable").slice(0, 80);
}

export async function probeLlm(
  config: LlmConfig,
  fetchImpl: FetchLike = fetch,
  options: { now?: () => number; fresh?: boolean } = {},
): Promise<LlmStatus> {
  if (!config.LLM_URL) return notConfigured;
  const now = options.now ?? Date.now;
  const key = `${config.LLM_URL}\u0000${config.LLM_MODEL}`;
  const kept = cache.get(key);
  if (kept && !options.fresh && now() - kept.at < PROBE_CACHE_MS) return kept.status;

  let answering = false;
  let problem: string | null = null;
  try {
    const res = await fetchImpl(llmEndpoint(config.LLM_URL, "models"), {
      method: "GET",
      headers: config.LLM_KEY ? { authorization: `Bearer ${config.LLM_KEY}` } : {},
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    answering = res.ok;
    if (!res.ok) problem = `HTTP ${res.status}${res.status === 401 || res.status === 403 ? " (check LLM_KEY)" : ""}`;
  } catch (error) {
    problem = reasonOf(error);
  }
  const status: LlmStatus = {
    configured: true,
    model: config.LLM_MODEL,
    host: llmHost(config.LLM_URL),
    answering,
    problem,
    checkedAt: new Date(now()).toISOString(),
  };
  cache.set(key, { at: now(), status });
  return status;
}

/** Tests: forget what was probed. */
export function forgetLlmProbes(): void {
  cache.clear();
}
