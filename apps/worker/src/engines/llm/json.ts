import { z } from "zod";
import { LlmBadAnswerError } from "./types.ts";

/**
 * The JSON object of a model's answer, validated. Models wrap it in ```json fences, put a sentence before or
 * after it, or think aloud first (<think>…</think>) however they are told, so the first balanced {...} (strings
 * and escapes respected) that parses and has the asked shape is taken. A bare top-level array is taken for an
 * object whose only field is an array (`[{"from":0,…}]` for `{"chapters":[…]}`). When nothing fits, the first
 * candidate's fault is reported.
 */
export function parseJsonAnswer<S extends z.ZodTypeAny>(text: string, schema: S): z.infer<S> {
  const reply = withoutThinking(text);
  const candidates = [...balanced(reply, "{", "}"), ...wrappedArrays(reply, schema)];
  if (candidates.length === 0) throw new LlmBadAnswerError(`the answer holds no JSON object: ${quote(text)}`);
  let firstParseError = "";
  let firstWrongShape: { value: unknown; issues: z.core.$ZodIssue[] } | undefined;
  for (const candidate of candidates) {
    let value: unknown;
    try {
      value = typeof candidate === "string" ? JSON.parse(candidate) : candidate.wrap(JSON.parse(candidate.text));
    } catch (error) {
      firstParseError ||= (error as Error).message;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    firstWrongShape ??= { value, issues: parsed.error.issues };
  }
  if (!firstWrongShape) {
    const first = candidates[0]!;
    throw new LlmBadAnswerError(
      `the answer's JSON does not parse (${firstParseError}): ${quote(typeof first === "string" ? first : first.text)}`,
    );
  }
  const issues = firstWrongShape.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
  throw new LlmBadAnswerError(
    `the answer's JSON has the wrong shape (${issues}): ${quote(JSON.stringify(firstWrongShape.value))}`,
  );
}

/** A reasoning model's thinking (<think>…</think>, or one never closed) is not its answer. */
export function withoutThinking(text: string): string {
  return text.replace(/<(think|thinking)>[\s\S]*?(?:<\/\1>|$)/gi, "");
}

/** Every balanced top-level {...} of `text`, in order (a "{" left open ends the search). */
export function balancedObjects(text: string): string[] {
  return balanced(text, "{", "}");
}

function balanced(text: string, open: string, close: string): string[] {
  const found: string[] = [];
  let start = text.indexOf(open);
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
      else if (ch === open) depth++;
      else if (ch === close && --depth === 0) end = i;
    }
    if (end < 0) break;
    found.push(text.slice(start, end + 1));
    start = text.indexOf(open, end + 1);
  }
  return found;
}

/** The top-level arrays of objects in `text`, each to be wrapped as the schema's only field, when it has exactly one. */
function wrappedArrays(text: string, schema: z.ZodTypeAny): { text: string; wrap: (value: unknown) => unknown }[] {
  const field = soleArrayField(schema);
  if (!field) return [];
  // an array of objects only: "[0] Ann: …" lines of prose are no answer
  return balanced(text, "[", "]")
    .filter((array) => /^\[\s*\{/.test(array))
    .map((array) => ({ text: array, wrap: (value) => ({ [field]: value }) }));
}

function soleArrayField(schema: z.ZodTypeAny): string | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const fields = Object.entries(schema.shape as Record<string, z.ZodTypeAny>);
  if (fields.length !== 1) return undefined;
  let inner: z.ZodTypeAny = fields[0]![1];
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodTypeAny;
  return inner instanceof z.ZodArray ? fields[0]![0] : undefined;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 160 ? `${flat.slice(0, 160)}…` : flat);
}
