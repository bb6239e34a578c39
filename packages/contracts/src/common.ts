import { z } from "zod";

/**
 * Request-side helpers. Clients send numbers and booleans as query strings or form fields as
 * often as JSON, so request schemas coerce; response schemas stay strict.
 */
export const zId = z.coerce.number({ error: "must be a number" }).int().positive().max(2_147_483_647);
export const zInt = z.coerce.number({ error: "must be a number" }).int();
export const zSource = z.coerce.number().int().optional();
export const zPage = z.coerce.number().int().min(1).max(100_000).default(1);
export const zPageSize = z.coerce.number().int().min(1).max(9999).default(20);

/** Epoch seconds, the spec's server timestamp unit. */
export const zEpochSeconds = z.number().int();

export function toEpochSeconds(date: Date | null | undefined): number {
  return date ? Math.floor(date.getTime() / 1000) : 0;
}
