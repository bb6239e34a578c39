import { z } from "zod";

/**
 * AI notes (issue 24; docs/notes.md). Chapters: the transcript cut where its topic changes, each with its time
 * range (ms, like the transcript's segments), a title and a gist of up to two sentences. `source` says how they
 * were made: "offline" (lexical cohesion, packages/domain/src/notes/chapters.ts) or "llm" (a configured model).
 */
export const ZChapter = z.object({
  /** index of the chapter's first and last segment in the transcript */
  from: z.number().int(),
  to: z.number().int(),
  startTime: z.number().int(),
  endTime: z.number().int(),
  title: z.string(),
  gist: z.array(z.string()),
});
export type Chapter = z.infer<typeof ZChapter>;

export const ZChapters = z.object({
  source: z.enum(["offline", "llm"]),
  chapters: z.array(ZChapter),
});
export type Chapters = z.infer<typeof ZChapters>;
