import type { z } from "zod";
import { LlmBadAnswerError } from "./types.ts";

/**
 * The JSON object of a model's answer, validated. Models wrap it in ```json fences or put a sentence before
 * or after it however they are told, so the first balanced {...} (strings and escapes respected) that parses
 * is taken; when none parses, the first balanced one is reported.
 */
export function parseJsonAnswer<S extends z.ZodTypeAny>(text: string, schema: S): z.infer<S> {
  const candidates = balancedObjects(text);
  if (candidates.length === 0) throw new LlmBadAnswerError(`the answer holds no JSON object: ${quote(text)}`);
  let value: unknown;
  let parsedOne = false;
  let firstError = "";
  for (const candidate of candidates) {
    try {
      value = JSON.parse(candidate);
      parsedOne = true;
      break;
    } catch (error) {
      firstError ||= (error as Error).message;
    }
  }
  if (!parsedOne) {
    throw new LlmBadAnswerError(`the answer's JSON does not parse (${firstError}): ${quote(candidates[0]!)}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    throw new LlmBadAnswerError(`the answer's JSON has the wrong shape (${issues}): ${quote(JSON.stringify(value))}`);
  }
  return parsed.data;
}

/** Every balanced top-level {...} of `text`, in order (a "{" left open ends the search). */
export function balancedObjects(text: string): string[] {
  const found: string[] = [];
  let start = text.indexOf("{");
  while (start >= 0) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let i = start; i < text.length && end < 0; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) end = i;
    }
    if (end < 0) break;
    found.push(text.slice(start, end + 1));
    start = text.indexOf("{", end + 1);
  }
  return found;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 160 ? `${flat.slice(0, 160)}…` : flat);
}
