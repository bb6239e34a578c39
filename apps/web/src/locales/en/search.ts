import type { search as zh } from "../zh/search.ts";

export const search: typeof zh = {
  search: {
    label: "Search all records",
    placeholder: "Search transcripts, names, speakers, summaries",
    hint: "Type to search the transcripts, names, speakers and summaries of all your records",
    none: "No record matches “{{q}}”",
    total: "{{count}} records",
    moreHits: "{{count}} more matches",
    searchMode: "Search or ask",
    modeSearch: "Search",
    modeAsk: "Ask",
    matchedIn: {
      name: "name matches",
      summary: "summary matches",
    },
  },
};
