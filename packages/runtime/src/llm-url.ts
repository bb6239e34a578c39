/**
 * The URL of an OpenAI-compatible server's call (docs/notes.md "Configuration"). LLM_URL may be given as the
 * server's root (`http://localhost:11434`), its `/v1` (`https://api.example.com/v1`, as cloud APIs document
 * it) or the full chat URL; all three reach the same `/v1/<path>`.
 */
export function llmEndpoint(llmUrl: string, path: "chat/completions" | "models"): string {
  const base = llmUrl.replace(/\/+$/, "").replace(/\/chat\/completions$/, "");
  return /\/v1$/.test(base) ? `${base}/${path}` : `${base}/v1/${path}`;
}

/** host[:port] of LLM_URL: what the pages name as the place notes text is sent to. */
export function llmHost(llmUrl: string): string {
  try {
    return new URL(llmUrl).host;
  } catch {
    return "";
  }
}
