import { clsx } from "clsx";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { docBlocks } from "@/lib/doc-blocks.ts";
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
            <DocumentText content={doc.data.content} />
          </>
        )}
      </article>
    </div>
  );
}

/**
 * A document's text, as text: React escapes every string, and nothing here sets HTML, so markup
 * in a document (a <script>, an onerror attribute) shows as the characters it is and never runs.
 */
function DocumentText({ content }: { content: string }) {
  return (
    <div className="help-text" data-testid="help-text">
      {docBlocks(content).map((block) => {
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
      })}
    </div>
  );
}
