import { useQuery } from "@tanstack/react-query";
import { clsx } from "clsx";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { Page } from "../../components/page.tsx";
import { EmptyState, ErrorState, Spinner } from "../../components/ui/states.tsx";
import { api } from "../../lib/api-client.ts";

interface HelpTitle {
  id: number;
  slug: string;
  title: string;
}
interface HelpDoc extends HelpTitle {
  content: string;
}

/** Spec §2 /helpDocument: the help documents; `doc` selects one by slug. A failed load shows an alert (spec §8). */
export default function HelpDocumentPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const titles = useQuery({
    queryKey: ["help", "titles", i18n.language],
    queryFn: () => api<HelpTitle[]>("/help_document/get_title"),
  });
  const slug = params.get("doc") ?? titles.data?.[0]?.slug;
  const doc = useQuery({
    queryKey: ["help", "doc", slug, i18n.language],
    queryFn: () => api<HelpDoc>("/help_document/get", { params: { slug } }),
    enabled: Boolean(slug),
  });

  return (
    <Page title={t("titles.helpDocument")}>
      {titles.isPending ? (
        <Spinner />
      ) : titles.isError ? (
        <ErrorState onRetry={() => void titles.refetch()} />
      ) : titles.data.length === 0 ? (
        <EmptyState text={t("empty.help")} />
      ) : (
        <div className="help">
          <nav className="help-titles">
            {titles.data.map((h) => (
              <button
                key={h.slug}
                type="button"
                className={clsx("help-title", h.slug === slug && "active")}
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
              <ErrorState onRetry={() => void doc.refetch()} />
            ) : (
              <>
                <h2>{doc.data.title}</h2>
                {doc.data.content.split("\n").map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of a static document
                  <p key={i}>{line}</p>
                ))}
              </>
            )}
          </article>
        </div>
      )}
    </Page>
  );
}
