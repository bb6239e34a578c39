/** Search over the user's transcripts, names, speakers and summaries (docs/search.md). */

export { backfillSearchIndex, reindexRecord } from "./index-record.ts";
export {
  SEARCH_HITS_PER_RECORD,
  type SearchHit,
  type SearchQuery,
  type SearchResultRecord,
  searchRecords,
} from "./search.ts";
export { bigrams, hanRuns, parseQuery, type SearchTokens, tokenize } from "./tokenize.ts";
