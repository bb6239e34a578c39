import { z } from "zod";
import { zInt, zText } from "./common.ts";
import { SATISFACTION_COMMENT_MAX, SATISFACTION_MAX, SATISFACTION_MIN } from "./limits.ts";

/** POST /api/v1/satisfaction/add (docs/satisfaction.md): the /tranSatis page's rating of a transcription. */
export const ZSatisfactionBody = z.object({
  rating: zInt.pipe(z.number().int().min(SATISFACTION_MIN).max(SATISFACTION_MAX)),
  comment: zText({ max: SATISFACTION_COMMENT_MAX, multiline: true }).optional(),
  /** the record the rating is about, when the page was opened for one */
  fileId: zInt.pipe(z.number().int().min(1)).optional(),
});
export type SatisfactionInput = z.infer<typeof ZSatisfactionBody>;
export const ZSatisfactionResult = z.object({ id: z.number().int(), createTime: z.number().int() });
