import { z } from "zod";
import type { LlmAnswerFormat } from "./types.ts";

/**
 * Structured output (docs/notes.md "Structured output"): how a call asks the server for the JSON it wants, and
 * what each server is remembered to take. Servers differ: vLLM, llama.cpp server, Ollama ≥ 0.5, LM Studio and
 * OpenAI constrain decoding to a `json_schema`; older llama.cpp and Ollama know only `json_object`; LM Studio
 * refuses `json_object`; some take neither, and some accept both and ignore them (the answer is read leniently
 * anyway: json.ts, prose.ts). So a call starts at the strongest level and steps down when it is refused.
 */

export const FORMAT_LEVELS = ["json_schema", "json_object", "none"] as const;
export type FormatLevel = (typeof FORMAT_LEVELS)[number];

/** How long a server+model's level is remembered: a refusal costs one quick call per server this often. */
export const FORMAT_MEMORY_MS = 60 * 60_000;

/** The request's `response_format` at a level (none: the field is left out). */
export function responseFormatOf(level: FormatLevel, format: LlmAnswerFormat): Record<string, unknown> | undefined {
  if (level === "json_schema") {
    return { type: "json_schema", json_schema: { name: format.name, schema: format.schema, strict: true } };
  }
  if (level === "json_object") return { type: "json_object" };
  return undefined;
}

export function nextLevel(level: FormatLevel): FormatLevel {
  return FORMAT_LEVELS[Math.min(FORMAT_LEVELS.indexOf(level) + 1, FORMAT_LEVELS.length - 1)]!;
}

/** what servers say when they do not take a response_format (LM Studio, llama.cpp, Ollama, vLLM, OpenAI) */
const NAMES_FORMAT = /response_format|json_schema|json_object|\bschema\b|structured output/i;

/**
 * Whether a failed call was refused for its response_format rather than for itself: any 400/422/5xx whose
 * message names it (old llama.cpp servers answer 500 "response_format type must be one of …"), or a bare
 * 400/422 while the server has not yet answered a call at this level (`confirmed`). A bare 400 from a server
 * known to take the level is the request's own fault (too long, bad model) and is refused as before.
 */
export function refusesFormat(status: number, body: string, confirmed: boolean): boolean {
  const rejected = status === 400 || status === 422;
  if (NAMES_FORMAT.test(body) && (rejected || status >= 500)) return true;
  return rejected && !confirmed;
}

interface Known {
  level: FormatLevel;
  until: number;
}

/**
 * The level each server+model last answered at, for FORMAT_MEMORY_MS: the calls after a refusal go straight to
 * the level that worked, and after a while the strongest is tried again (the operator may have upgraded the
 * server). Only an answered call is remembered: a refusal whose step-down also fails proves nothing.
 */
export class ResponseFormatMemory {
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly ttlMs = FORMAT_MEMORY_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The level to ask at, and whether the server has answered at it (so a bare 400 is not blamed on it). */
  current(server: string): { level: FormatLevel; confirmed: boolean } {
    const known = this.known.get(server);
    if (!known || known.until <= this.now()) return { level: FORMAT_LEVELS[0], confirmed: false };
    return { level: known.level, confirmed: true };
  }

  answered(server: string, level: FormatLevel) {
    this.known.set(server, { level, until: this.now() + this.ttlMs });
  }
}

/** One per process, like the call limit: every notes job of the process learns from the others' refusals. */
export const processFormatMemory = new ResponseFormatMemory();

const derived = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * The format a call asks back, from the zod schema its answer is validated with (z.toJSONSchema of its input),
 * named after the task (OpenAI wants [A-Za-z0-9_-], at most 64).
 */
export function answerFormat(name: string, schema: z.ZodType): LlmAnswerFormat {
  let json = derived.get(schema);
  if (!json) {
    json = strictSchema(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })) as Record<string, unknown>;
    derived.set(schema, json);
  }
  return { name: name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "answer", schema: json };
}

/** keywords strict mode does not take, or that only zod needs (it checks them again on the answer) */
const LEFT_OUT = new Set(["$schema", "minLength", "maxLength", "default"]);

/**
 * The subset of JSON Schema that OpenAI's strict mode takes (and grammar-constrained servers compile): every
 * property required (an optional one may still be null or empty), no others, no length bounds, and no ±2^53
 * bounds zod puts on integers.
 */
function strictSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictSchema);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (LEFT_OUT.has(key)) continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as object).map(([name, v]) => [name, strictSchema(v)]))
        : strictSchema(value);
  }
  if (out.type === "object" && out.properties) {
    out.required = Object.keys(out.properties);
    out.additionalProperties = false;
  }
  return out;
}
