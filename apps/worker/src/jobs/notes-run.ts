import { estimateTokens } from "@yuelu/contracts";
import type { NoteTaskModel } from "@yuelu/db";
import { type DomainContext, reportNoteProgress, TaskState } from "@yuelu/domain";
import type { z } from "zod";
import {
  answerFormat,
  type LlmAnswerFormat,
  LlmBadAnswerError,
  type LlmClient,
  type LlmMessage,
  parseJsonAnswer,
} from "../engines/llm/index.ts";
import { promptTask, stricter } from "./notes-prompts.ts";

/**
 * One attempt of a notes task while it talks to the model: every call's tokens and progress written as it
 * ends, the map steps' answers kept (`partial`) so a retried attempt does not ask them again, a rejected
 * answer asked once more (then read as prose where the note can use prose), and the attempt stopped as soon
 * as the task is no longer running (cancelled).
 */

export type NotesDomain = Pick<DomainContext, "db" | "clock" | "config" | "events">;

/** The task is no longer running (cancelled, failed by housekeeping, deleted): stop and write nothing. */
export class NoteTaskGoneError extends Error {
  constructor(taskId: number) {
    super(`note task ${taskId} is gone or no longer running`);
    this.name = "NoteTaskGoneError";
  }
}

export interface AskOptions<T> {
  /** rules beyond the schema (throw LlmBadAnswerError: badAnswer) */
  check?: (answer: T) => void;
  /** a map step: its answer is kept in `partial` */
  piece?: { index: number; from: number; to: number };
  /** what can be used of a reply that is not the JSON asked for; undefined: nothing (docs/notes.md) */
  prose?: (reply: string) => T | undefined;
}

/** An answer; `fromProse` when it was read from a reply that was not the JSON asked for (kept in `partial` too). */
export type Asked<T> = T & { fromProse?: true };

/** The model answered twice and neither reply could be used, not even as prose: the note cannot be made by it. */
export class UnusableAnswerError extends LlmBadAnswerError {
  constructor(message: string) {
    super(message);
    this.name = "UnusableAnswerError";
  }
}

/** The first reply (latest first) that `prose` reads into something `check` passes, else undefined. */
function readProse<T>(replies: string[], options: AskOptions<T>): T | undefined {
  if (!options.prose) return undefined;
  for (const reply of replies) {
    const read = options.prose(reply);
    if (read === undefined) continue;
    try {
      options.check?.(read);
      return read;
    } catch (error) {
      if (!(error instanceof LlmBadAnswerError)) throw error;
    }
  }
  return undefined;
}

/** A piece's answer as kept in `partial`: with its range, so a different cut (another context size) is not reused. */
interface Kept {
  from: number;
  to: number;
  answer: unknown;
}

export class NoteRun {
  private readonly partial: Record<string, Kept>;
  private readonly abort = new AbortController();
  private watcher: NodeJS.Timeout | undefined;
  private done = 0;
  /** calls the whole note takes, as far as known (map pieces plus merges) */
  total = 1;

  constructor(
    private readonly domain: NotesDomain,
    private readonly llm: LlmClient,
    readonly task: NoteTaskModel,
    watchEveryMs = 2000,
  ) {
    this.partial = keptOf(task.partial);
    // a cancel while a slow call runs aborts it, rather than waiting for its answer
    this.watcher = setInterval(() => void this.watch(), watchEveryMs);
    this.watcher.unref();
  }

  /** LLM_CONTEXT_TOKENS: what one call may hold, prompt and answer */
  get contextTokens(): number {
    return this.domain.config.LLM_CONTEXT_TOKENS;
  }

  stop() {
    clearInterval(this.watcher);
    this.watcher = undefined;
  }

  /** A map step's kept answer from an earlier attempt (same piece range), else undefined. */
  kept<T>(piece: number, range: { from: number; to: number }): T | undefined {
    const kept = this.partial[String(piece)];
    return kept && kept.from === range.from && kept.to === range.to ? (kept.answer as T) : undefined;
  }

  /** A step counted as done without a call (kept from an earlier attempt). */
  skip() {
    this.done++;
  }

  /**
   * One call, its answer validated by `schema` and `check` (which throws LlmBadAnswerError); the server is asked
   * for that shape as structured output where it takes it. A rejected answer is asked once more with a stricter
   * reminder; when that one is rejected too, `prose` may still read what can be used of the two replies (the
   * latest first; checked like an answer): it is returned marked `fromProse`. `piece`: a map step, whose answer
   * is kept. Nothing usable: UnusableAnswerError (40005 llm-bad-answer).
   */
  async ask<S extends z.ZodTypeAny>(
    messages: LlmMessage[],
    schema: S,
    options: AskOptions<z.infer<S>> = {},
  ): Promise<Asked<z.infer<S>>> {
    const format = answerFormat(promptTask(messages), schema);
    const replies: string[] = [];
    let asked = messages;
    for (;;) {
      const reply = await this.call(asked, format);
      replies.unshift(reply.text);
      let rejected: LlmBadAnswerError;
      try {
        const answer = parseJsonAnswer(reply.text, schema);
        options.check?.(answer);
        return await this.accept(answer as Asked<z.infer<S>>, reply.tokens, options.piece);
      } catch (error) {
        if (!(error instanceof LlmBadAnswerError)) throw error;
        rejected = error;
      }
      if (replies.length === 1) {
        await this.report(reply.tokens, false);
        asked = stricter(messages, rejected.message);
        continue;
      }
      const read = readProse(replies, options);
      if (read === undefined) {
        await this.report(reply.tokens, false);
        throw new UnusableAnswerError(rejected.message);
      }
      return this.accept({ ...read, fromProse: true }, reply.tokens, options.piece);
    }
  }

  private async accept<T>(answer: T, tokens: number, piece: AskOptions<T>["piece"]): Promise<T> {
    this.done++;
    if (piece) this.partial[String(piece.index)] = { from: piece.from, to: piece.to, answer };
    await this.report(tokens, piece !== undefined);
    return answer;
  }

  private async call(messages: LlmMessage[], format: LlmAnswerFormat): Promise<{ text: string; tokens: number }> {
    this.abort.signal.throwIfAborted();
    const context = this.domain.config.LLM_CONTEXT_TOKENS;
    const prompt = estimateTokens(messages.map((m) => m.content).join("\n"));
    // what is left of the context answers; never so little that a short JSON cannot be written
    const maxTokens = Math.max(256, context - prompt - 32);
    try {
      const reply = await this.llm.chat(messages, { maxTokens, signal: this.abort.signal, format });
      return { text: reply.text, tokens: reply.usage.totalTokens };
    } catch (error) {
      if (this.abort.signal.aborted) throw new NoteTaskGoneError(this.task.id);
      throw error;
    }
  }

  private async report(tokens: number, withPartial: boolean) {
    const progress = (100 * this.done) / Math.max(this.total, this.done + 1);
    const running = await reportNoteProgress(this.domain.db, this.task.id, {
      progress,
      tokens,
      ...(withPartial ? { partial: this.partial as Record<string, unknown> } : {}),
    });
    if (!running) {
      this.abort.abort();
      throw new NoteTaskGoneError(this.task.id);
    }
  }

  private async watch() {
    if (this.abort.signal.aborted) return;
    const row = await this.domain.db.noteTask
      .findUnique({ where: { id: this.task.id }, select: { status: true } })
      .catch(() => undefined);
    // a failed read leaves the call alone: only a task seen stopped (or gone) is aborted
    if (row === null || (row && row.status !== TaskState.Running)) this.abort.abort();
  }
}

function keptOf(partial: unknown): Record<string, Kept> {
  const kept: Record<string, Kept> = {};
  if (!partial || typeof partial !== "object" || Array.isArray(partial)) return kept;
  for (const [key, value] of Object.entries(partial as Record<string, unknown>)) {
    const v = value as Partial<Kept> | null;
    if (v && typeof v.from === "number" && typeof v.to === "number" && "answer" in v) {
      kept[key] = { from: v.from, to: v.to, answer: v.answer };
    }
  }
  return kept;
}

export function badAnswer(message: string): never {
  throw new LlmBadAnswerError(message);
}

/**
 * Consecutive groups of `items` whose costs add up to at most `budget` (one alone may be over): what one merge
 * call can carry. Never one item per group when there are several, so repeated merging always shrinks the list.
 */
export function batches<T>(items: T[], cost: (item: T) => number, budget: number): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let used = 0;
  for (const item of items) {
    const c = cost(item);
    if (group.length > 0 && used + c > budget) {
      groups.push(group);
      group = [];
      used = 0;
    }
    group.push(item);
    used += c;
  }
  if (group.length) groups.push(group);
  if (groups.length > 1 && groups.length === items.length) {
    // every item fills a call alone: merge them two by two (the model's answer is shorter than its input)
    const pairs: T[][] = [];
    for (let i = 0; i < items.length; i += 2) pairs.push(items.slice(i, i + 2));
    return pairs;
  }
  return groups;
}
