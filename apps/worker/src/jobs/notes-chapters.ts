import { type Chapters, estimateTokens, type Segment } from "@yuelu/contracts";
import { chunkSegments, offlineChapters, pieceTokens } from "@yuelu/domain";
import {
  type ChaptersAnswer,
  chaptersMergePrompt,
  chaptersPrompt,
  type NoteLang,
  segmentLines,
  ZChaptersAnswer,
} from "./notes-prompts.ts";
import { badAnswer, batches, type NoteRun, UnusableAnswerError } from "./notes-run.ts";

type Found = ChaptersAnswer["chapters"][number];

/**
 * Chapters for a chapters note (docs/notes.md "Chapters"): the model's; when its answers cannot be read as
 * chapters (prose, or JSON breaking the rules, twice), the offline method's, and the note says so (`source:
 * "offline"`, `fallback.chapters: "offline"`). A transcript the offline method finds no chapters in fails as
 * before: nothing is made up.
 */
export async function makeChapters(run: NoteRun, segments: Segment[], lang: NoteLang): Promise<Chapters> {
  try {
    return await chaptersByModel(run, segments, lang);
  } catch (error) {
    if (!(error instanceof UnusableAnswerError)) throw error;
    const chapters = offlineChapters(segments);
    if (chapters.length === 0) throw error;
    return { source: "offline", chapters, fallback: { chapters: "offline" } };
  }
}

/**
 * The model's chapters: each piece's chapters (map), then adjacent chapters of the same topic joined (reduce:
 * the model only picks among the given starts, so every boundary stays a real segment).
 */
async function chaptersByModel(run: NoteRun, segments: Segment[], lang: NoteLang): Promise<Chapters> {
  const budget = pieceTokens("chapters", run.contextTokens);
  const pieces = chunkSegments(segments, budget);
  run.total = pieces.length + (pieces.length > 1 ? 1 : 0);
  let found: Found[] = [];
  for (const [index, piece] of pieces.entries()) {
    let answer = run.kept<ChaptersAnswer>(index, piece);
    if (answer) run.skip();
    else {
      answer = await run.ask(chaptersPrompt(lang, segmentLines(segments, piece.from, piece.to)), ZChaptersAnswer, {
        check: (a) => checkStarts(a.chapters, piece, "a chapter"),
        piece: { index, ...piece },
      });
    }
    // the piece's first chapter starts the piece, whatever index the model gave it
    found = found.concat(answer.chapters.map((c, k) => (k === 0 ? { ...c, from: piece.from } : c)));
  }
  if (pieces.length > 1) {
    const windows = batches(found, (c) => estimateTokens(JSON.stringify(c)), budget);
    run.total = pieces.length + windows.length;
    found = [];
    for (const window of windows) found = found.concat(window.length > 1 ? await merge(run, lang, window) : window);
  }
  return {
    source: "llm",
    chapters: found.map((c, k) => chapterOf(segments, c, found[k + 1]?.from ?? segments.length)),
  };
}

async function merge(run: NoteRun, lang: NoteLang, window: Found[]): Promise<Found[]> {
  const given = new Set(window.map((c) => c.from));
  const answer = await run.ask(chaptersMergePrompt(lang, window), ZChaptersAnswer, {
    check: (a) => {
      const unknown = a.chapters.find((c) => !given.has(c.from));
      if (unknown) badAnswer(`the merged chapters start at ${unknown.from}, which is not one of the given starts`);
      if (a.chapters[0]!.from !== window[0]!.from) {
        badAnswer(`the merged chapters must keep the first chapter (from ${window[0]!.from})`);
      }
      checkStarts(a.chapters, { from: window[0]!.from, to: Number.MAX_SAFE_INTEGER }, "a merged chapter");
    },
  });
  return answer.chapters;
}

/** `from`s ascend and lie within the piece (the first may be later than its start: it is moved there). */
function checkStarts(chapters: Found[], piece: { from: number; to: number }, what: string) {
  chapters.forEach((c, k) => {
    if (c.from < piece.from || c.from > piece.to) {
      badAnswer(`${what} starts at segment ${c.from}, outside the segments ${piece.from}–${piece.to} it was given`);
    }
    if (k > 0 && c.from <= chapters[k - 1]!.from) {
      badAnswer(`${what} starts at ${c.from}, not after the one before it (${chapters[k - 1]!.from})`);
    }
  });
}

function chapterOf(segments: Segment[], c: Found, next: number) {
  const to = Math.max(c.from, next - 1);
  return {
    from: c.from,
    to,
    startTime: segments[c.from]!.startTime,
    endTime: segments[to]!.endTime,
    title: c.title.slice(0, 120),
    gist: gistLines(c.gist),
  };
}

/** Up to two sentences, one a line ("e.g." and "3.5" are not sentence ends: a period needs a space after it). */
export function gistLines(gist: string): string[] {
  return gist
    .split(/(?<=[。！？!?])|(?<=\.)\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 2);
}
