import { z } from "zod";
import { PAGE_SIZE_MAX } from "./limits.ts";
import { unsafeTextReason } from "./text.ts";

/**
 * The request-side building blocks every schema uses. Clients send numbers and flags as query
 * strings or form fields as often as JSON, so request schemas coerce; response schemas stay strict.
 * Reasons are written in English from the catalogue of validation.ts, which translates them.
 */

const ID_MAX = 2_147_483_647;
const idReason = "must be a positive integer id";

/** A row id: a positive integer, as a number or a string of digits. */
export const zId = z.coerce.number({ error: idReason }).int(idReason).min(1, idReason).max(ID_MAX, idReason);

/** An integer sent as a JSON number or as a string of digits ("-1" included). */
export const zInt = z.union([
  z.number().int("must be an integer"),
  z
    .string()
    .trim()
    .regex(/^-?\d{1,9}$/, "must be a number")
    .transform(Number),
]);

/** A flag sent as a JSON boolean, 0/1, or the strings "true"/"false"/"1"/"0". */
export const zFlag = z.union(
  [
    z.boolean(),
    z.literal(0).transform(() => false),
    z.literal(1).transform(() => true),
    z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1"),
  ],
  { error: "must be true or false" },
);

/**
 * Text a user typed. Always refuses NUL (text.ts); single-line text (the default) also refuses the
 * other control characters and bidi overrides. Trimmed unless `trim: false`.
 */
export function zText(options: { max: number; min?: number; multiline?: boolean; trim?: boolean }) {
  const base = options.trim === false ? z.string() : z.string().trim();
  const min = options.min ?? 0;
  return base
    .min(min, min === 1 ? "must not be empty" : `at least ${min} characters`)
    .max(options.max, `at most ${options.max} characters`)
    .superRefine((text, ctx) => {
      const reason = unsafeTextReason(text, { multiline: options.multiline });
      if (reason) ctx.addIssue({ code: "custom", message: reason });
    });
}

/**
 * Ids as "1,2,3", an array, or a single id; de-duplicated, in the order given, 1–`max` of them.
 * `noun` names them in the 'at most' reason ("at most 100 files").
 */
export function zIdList(max: number, noun: "ids" | "files" = "ids") {
  const listReason = "must be comma-separated positive integer ids";
  return z
    .union([z.string().max(max * 12), z.number(), z.array(z.union([z.number(), z.string().max(20)])).max(max * 2)], {
      error: listReason,
    })
    .transform((value, ctx) => {
      const parts = (Array.isArray(value) ? value : String(value).split(","))
        .map((p) => String(p).trim())
        .filter((p) => p !== "");
      const ids = new Set<number>();
      for (const part of parts) {
        const id = /^\d{1,10}$/.test(part) ? Number(part) : Number.NaN;
        if (!Number.isSafeInteger(id) || id <= 0 || id > ID_MAX) {
          ctx.addIssue({ code: "custom", message: listReason });
          return z.NEVER;
        }
        ids.add(id);
      }
      if (ids.size === 0) {
        ctx.addIssue({ code: "custom", message: "must name at least one id" });
        return z.NEVER;
      }
      if (ids.size > max) {
        ctx.addIssue({ code: "custom", message: `at most ${max} ${noun}` });
        return z.NEVER;
      }
      return [...ids];
    });
}

/** The spec's `source` parameter (always 0 from the SPA): accepted and ignored. */
export const zSource = z.coerce.number().int().optional();

const zPageNumber = () =>
  z.coerce.number({ error: (issue) => (issue.code === "invalid_type" ? "must be a number" : undefined) }).int();

/** page (1-based) and pageSize (≤ 9999, spec §9) of a list call. */
export const zPaging = {
  page: zPageNumber().min(1).max(100_000).default(1),
  pageSize: zPageNumber().min(1).max(PAGE_SIZE_MAX).default(20),
  source: zSource,
};
export const ZPageQuery = z.object(zPaging);

/** A list filter: `-1` (spec §5), `""` or absent drop it (→ undefined). */
export function dropUnset<T extends z.ZodType>(inner: T) {
  return z.preprocess(
    (value) => (value === undefined || value === "" || value === -1 || value === "-1" ? undefined : value),
    inner.optional(),
  );
}

/** A JSON value sent as its JSON text (form fields) or as itself. */
export function zJsonText<T extends z.ZodType>(inner: T, maxLength: number) {
  return z
    .union([z.string().max(maxLength), z.array(z.unknown()), z.record(z.string(), z.unknown())])
    .transform((value, ctx) => {
      if (typeof value !== "string") return value as unknown;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "invalid JSON" });
        return z.NEVER;
      }
    })
    .pipe(inner);
}
