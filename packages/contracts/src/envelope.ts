import { z } from "zod";
import { StatusCode } from "./codes.ts";

/** Every JSON response of /voice_yuelu: `{status_code, status_msg, data}`; status_code 1 is success. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ status_code: z.number().int(), status_msg: z.string(), data });
}

export type Envelope<T = unknown> = { status_code: number; status_msg: string; data: T };

export function ok<T>(data: T): Envelope<T> {
  return { status_code: StatusCode.Success, status_msg: "success", data };
}
