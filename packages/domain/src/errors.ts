import { StatusCode } from "@yuelu/contracts";

/**
 * An expected failure with a spec §8 status code. The API's error handler turns it into the
 * envelope, translating the message into the request's language: `params` fill the message's
 * placeholders, and a 10002 names its `field` and the `reason` (English, from the catalogue of
 * contracts/validation.ts, translated there).
 */
export class AppError extends Error {
  field?: string;
  reason?: string;

  constructor(
    readonly code: StatusCode,
    readonly params: Record<string, string | number> = {},
    readonly httpStatus = 200,
  ) {
    super(`AppError ${code}`);
    this.name = "AppError";
  }

  /** 10002 naming the bad field, e.g. AppError.invalid("menuName", "at most 200 folders"). */
  static invalid(field: string, reason?: string): AppError {
    const error = new AppError(StatusCode.InvalidParams);
    error.field = field;
    error.reason = reason;
    error.message = `AppError 10002: ${field}${reason ? ` (${reason})` : ""}`;
    return error;
  }
}
