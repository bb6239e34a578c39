import { useTranslation } from "react-i18next";
import { docBlocks } from "@/lib/doc-blocks.ts";

/**
 * A help document as the help centre shows it (lib/doc-blocks.ts: paragraphs and lists read from
 * plain text). Every string goes through React, which escapes it, and nothing sets HTML: markup
 * typed into a document shows as the characters it is.
 */
export function DocPreview({ content, testId }: { content: string; testId?: string }) {
  const { t } = useTranslation();
  const blocks = docBlocks(content);
  return (
    <div className="admin-doc-preview" data-testid={testId}>
      {blocks.length === 0 ? (
        <p className="muted">{t("admin.content.previewEmpty")}</p>
      ) : (
        blocks.map((block) => {
          if (block.kind === "p") return <p key={block.id}>{block.text}</p>;
          // biome-ignore lint/suspicious/noArrayIndexKey: the items of one static list
          const items = block.items.map((item, j) => <li key={j}>{item}</li>);
          return block.kind === "ol" ? (
            <ol key={block.id} start={block.start}>
              {items}
            </ol>
          ) : (
            <ul key={block.id}>{items}</ul>
          );
        })
      )}
    </div>
  );
}
