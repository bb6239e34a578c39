import { clsx } from "clsx";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { MarkdownText } from "@/components/markdown-text.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useHelpDocument, useHelpTitles } from "../api/get-help.ts";
import "./help-center.css";

/**
 * Spec §2 /helpDocument: the documents as tabs (a side list on desktop, a strip that scrolls
 * sideways on phones) and the chosen one; `doc` selects one by slug.
 */
export function HelpCenter() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const titles = useHelpTitles();
  // `doc` (ours) or `slug` (the API's name for it) picks the document.
  const slug = params.get("doc") ?? params.get("slug") ?? titles.data?.[0]?.slug;
  const doc = useHelpDocument(slug);

  if (titles.isPending) return <Spinner />;
  if (titles.isError) return <ErrorState message={t("help.loadFailed")} onRetry={() => void titles.refetch()} />;
  if (titles.data.length === 0) return <EmptyState text={t("help.empty")} />;
  return (
    <div className="help">
      <nav className="help-titles" aria-label={t("titles.helpDocument")} data-testid="help-tabs">
        {titles.data.map((h) => (
          <button
            key={h.slug}
            type="button"
            className={clsx("help-title", h.slug === slug && "active")}
            aria-current={h.slug === slug ? "page" : undefined}
            onClick={() => setParams({ doc: h.slug })}
          >
            {h.title}
          </button>
        ))}
      </nav>
      <article className="help-body">
        {doc.isPending ? (
          <Spinner />
        ) : doc.isError ? (
          <ErrorState message={t("help.loadFailed")} onRetry={() => void doc.refetch()} />
        ) : (
          <>
            <h2>{doc.data.title}</h2>
            <MarkdownText content={doc.data.content} className="help-text" testId="help-text" />
          </>
        )}
      </article>
    </div>
  );
}
