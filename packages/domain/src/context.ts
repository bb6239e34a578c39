import type { Db } from "@yuelu/db";
import type { Config, EventPublisher, FileStore } from "@yuelu/runtime";

/** Where "now" comes from: the system clock in the product, a fixed one in tests that cross midnight. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** The settings business rules read. */
export type DomainConfig = Pick<
  Config,
  | "BUSINESS_TZ"
  | "DAILY_QUOTA_SECONDS"
  | "DAILY_QUOTA_SECONDS_MEMBER"
  | "TTS_DAILY_CHARS"
  | "TTS_DAILY_CHARS_MEMBER"
  | "LLM_URL"
  | "LLM_MODEL"
  | "LLM_CONTEXT_TOKENS"
  | "LLM_DAILY_TOKENS"
  | "LLM_DAILY_TOKENS_MEMBER"
  | "ACCOUNT_DELETION_GRACE_DAYS"
  | "PAY_ORDER_TTL_SECONDS"
  | "WEBHOOK_ALLOW_PRIVATE"
  | "STORAGE_BYTES_PER_USER"
>;

/**
 * What every domain function receives: the database, the clock, the event bus (events are
 * published after the transaction that caused them commits: see transact), the settings, and the
 * file store (for files a rule removes once its rows are gone). The API and the worker each build one.
 */
export interface DomainContext {
  db: Db;
  clock: Clock;
  events: EventPublisher;
  config: DomainConfig;
  files: Pick<FileStore, "delete">;
}
