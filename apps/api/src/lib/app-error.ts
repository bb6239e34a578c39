import { StatusCode } from "@yuelu/contracts";

/**
 * An expected failure with a spec §8 status code. The error handler turns it into the envelope,
 * translating the message into the request's language; `params` fill the message's placeholders.
 */
export class AppError extends Error {
  constructor(
    readonly code: StatusCode,
    readonly params: Record<string, string | number> = {},
    readonly httpStatus = 200,
  ) {
    super(`AppError ${code}`);
  }

  /** 10002 naming the bad field. */
  static invalid(field: string, reason?: string): AppError {
    return new AppError(StatusCode.InvalidParams, { field: reason ? `${field} (${reason})` : field });
  }
}
