import { useTranslation } from "react-i18next";
import { MarkdownText } from "@/components/markdown-text.tsx";

/**
 * A help document as the help centre shows it: the same Markdown renderer (components/markdown-text.tsx,
 * no HTML from the text ever interpreted). Its links open a new tab, so trying one keeps the editor.
 */
export function DocPreview({ content, testId }: { content: string; testId?: string }) {
  const { t } = useTranslation();
  return content.trim() === "" ? (
    <div className="admin-doc-preview" data-testid={testId}>
      <p className="muted">{t("admin.content.previewEmpty")}</p>
    </div>
  ) : (
    <MarkdownText content={content} className="admin-doc-preview" testId={testId} linksInNewTab />
  );
}
