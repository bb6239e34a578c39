import type { notes as zh } from "../zh/notes.ts";

/** AI notes made from a transcript (issue 24): chapters. */
export const notes: typeof zh = {
  notes: {
    chaptersTab: "Chapters",
    offlineChapters: "Split where the topic changes; titles are each part's key words (no language model configured)",
    noChapters: "No chapters yet",
    chaptersFailed: "Could not load the chapters",
  },
};
