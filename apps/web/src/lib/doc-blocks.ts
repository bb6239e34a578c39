/**
 * A help document is plain text with line breaks (docs/engagement.md). It is shown as text — never
 * parsed as HTML, so nothing in a document can run — with two conveniences read from the text
 * itself: lines '1. …' make a numbered list and lines '- …' a bulleted one; other lines are paragraphs.
 * Shared: the help centre shows documents with it, and the operator console previews them with it.
 */
export type DocBlock = { id: number } & (
  | { kind: "p"; text: string }
  | { kind: "ol"; items: string[]; start: number }
  | { kind: "ul"; items: string[] }
);

const NUMBERED = /^(\d{1,3})[.、)）]\s*(.*)$/u;
const BULLET = /^[-*•·]\s+(.*)$/u;

export function docBlocks(content: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "") continue;
    const last = blocks.at(-1);
    const numbered = NUMBERED.exec(line);
    if (numbered) {
      const text = numbered[2] ?? "";
      if (last?.kind === "ol") last.items.push(text);
      else blocks.push({ id: blocks.length, kind: "ol", items: [text], start: Number(numbered[1]) });
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const text = bullet[1] ?? "";
      if (last?.kind === "ul") last.items.push(text);
      else blocks.push({ id: blocks.length, kind: "ul", items: [text] });
      continue;
    }
    blocks.push({ id: blocks.length, kind: "p", text: line });
  }
  return blocks;
}
