import { z } from "zod";
import { zFlag } from "./common.ts";

/**
 * GET /voice_yuelu/api/v1/search (docs/search.md): the caller's records whose transcript, name,
 * given speaker names or summary match `q`, grouped by record. `total` counts records; each
 * record's `hits` are its best segments (at most SEARCH_HITS_PER_RECORD) in time order, `startTime`
 * in ms like asrResult. The five fields total/list/fileId/fileName/hits{startTime,text} are a fixed
 * contract other clients read; the rest are additions.
 */

export const SEARCH_QUERY_MAX = 100;
export const SEARCH_PAGE_SIZE_MAX = 50;
export const SEARCH_PAGE_SIZE_DEFAULT = 20;

export const ZSearchQuery = z.object({
  q: z.string().trim().min(1, "must not be empty").max(SEARCH_QUERY_MAX, `at most ${SEARCH_QUERY_MAX} characters`),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(SEARCH_PAGE_SIZE_MAX).default(SEARCH_PAGE_SIZE_DEFAULT),
  /** also records in the recycle bin */
  includeDeleted: zFlag.optional(),
});
export type SearchQueryInput = z.infer<typeof ZSearchQuery>;

/** [start, end) UTF-16 offsets of a matched word */
const ZRange = z.tuple([z.number().int(), z.number().int()]);

export const ZSearchHit = z.object({
  startTime: z.number().int(),
  text: z.string(),
  highlights: z.array(ZRange),
});
export type SearchHitView = z.infer<typeof ZSearchHit>;

export const ZSearchRecord = z.object({
  fileId: z.number().int(),
  fileName: z.string(),
  hits: z.array(ZSearchHit),
  hitCount: z.number().int(),
  matchedIn: z.array(z.enum(["segment", "name", "summary"])),
  nameHighlights: z.array(ZRange),
});
export type SearchRecordView = z.infer<typeof ZSearchRecord>;

export const ZSearchResult = z.object({ total: z.number().int(), list: z.array(ZSearchRecord) });
export type SearchResult = z.infer<typeof ZSearchResult>;
