import { piecesOf } from "../lib/highlight.ts";

/** Text with its matched words in <mark>. */
export function Highlighted({ text, ranges }: { text: string; ranges: readonly (readonly [number, number])[] }) {
  return (
    <>
      {piecesOf(text, ranges).map((p, i) =>
        p.mark ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one fixed text, in order
          <mark key={i}>{p.text}</mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one fixed text, in order
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
