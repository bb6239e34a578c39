import type { SearchRecordView } from "@yuelu/contracts";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { Pagination } from "@/components/ui/pagination.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { SEARCH_PAGE_SIZE, useSearch } from "../api/search.ts";
import { detailHref, hitClock } from "../lib/highlight.ts";
import { Highlighted } from "./highlighted.tsx";
import "./search.css";

/** How long typing pauses before the query runs (and the URL changes). */
const DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function ResultRecord({ record, q, detailPath }: { record: SearchRecordView; q: string; detailPath: string }) {
  const { t } = useTranslation();
  return (
    <li className="search-record" data-testid="search-record">
      <Link className="search-record-name" to={detailHref(detailPath, { ...record, q })}>
        <Highlighted text={record.fileName} ranges={record.nameHighlights} />
      </Link>
      {record.matchedIn.some((m) => m !== "segment") && (
        <span className="muted search-matched-in">
          {record.matchedIn
            .filter((m) => m !== "segment")
            .map((m) => t(`search.matchedIn.${m}`))
            .join(" · ")}
        </span>
      )}
      {record.hits.length > 0 && (
        <ul className="search-hits">
          {record.hits.map((hit) => (
            <li key={`${hit.startTime}:${hit.text}`}>
              <Link
                className="search-hit"
                data-testid="search-hit"
                to={detailHref(detailPath, { ...record, startTime: hit.startTime, q })}
              >
                <span className="search-hit-time">{hitClock(hit.startTime)}</span>
                <span className="search-hit-text">
                  <Highlighted text={hit.text} ranges={hit.highlights} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {record.hitCount > record.hits.length && (
        <p className="muted search-more">{t("search.moreHits", { count: record.hitCount - record.hits.length })}</p>
      )}
    </li>
  );
}

/**
 * The search page (`?q=&page=`): one box over every transcript, name, speaker and summary of the
 * user's; results grouped by record, each hit with its time and its words marked. A hit opens
 * /detail playing from that moment. With `ask` (handed in by the route: the transcript feature's question
 * box over all records) a second mode, `?mode=ask`, asks instead of searching.
 */
export function SearchView({ detailPath, ask }: { detailPath: string; ask?: ReactNode }) {
  const [params, setParams] = useSearchParams();
  if (ask && params.get("mode") === "ask")
    return (
      <div className="search-view">
        <SearchModes asking onMode={(mode) => setParams(mode === "ask" ? { mode } : {})} />
        {ask}
      </div>
    );
  return <SearchResults detailPath={detailPath} modes={ask !== undefined} />;
}

/** Search or ask: two tabs over the page, kept in the URL (`mode=ask`). */
function SearchModes({ asking, onMode }: { asking: boolean; onMode: (mode: "search" | "ask") => void }) {
  const { t } = useTranslation();
  return (
    <div className="tabs-list search-modes" role="tablist" aria-label={t("search.searchMode")}>
      {(["search", "ask"] as const).map((mode) => (
        <button
          key={mode}
          type="button"
          role="tab"
          className="tabs-trigger"
          aria-selected={asking === (mode === "ask")}
          data-state={asking === (mode === "ask") ? "active" : "inactive"}
          data-testid={`search-mode-${mode}`}
          onClick={() => onMode(mode)}
        >
          {t(mode === "ask" ? "search.modeAsk" : "search.modeSearch")}
        </button>
      ))}
    </div>
  );
}

function SearchResults({ detailPath, modes }: { detailPath: string; modes: boolean }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const urlQ = params.get("q") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [text, setText] = useState(urlQ);
  const debounced = useDebounced(text, DEBOUNCE_MS);

  // typing changes the URL (replace: one history entry per search, not per key)
  useEffect(() => {
    if (debounced.trim() === urlQ.trim()) return;
    setParams(debounced.trim() ? { q: debounced.trim() } : {}, { replace: true });
  }, [debounced, urlQ, setParams]);

  const q = urlQ.trim();
  const result = useSearch(q, page);

  let body: React.ReactNode;
  if (q === "") body = <EmptyState icon="🔍" text={t("search.hint")} />;
  else if (result.isPending) body = <Spinner />;
  else if (result.isError) body = <ErrorState onRetry={() => void result.refetch()} />;
  else if (result.data.total === 0) body = <EmptyState icon="🔍" text={t("search.none", { q })} />;
  else {
    body = (
      <>
        <p className="muted search-total" aria-live="polite" data-testid="search-total">
          {t("search.total", { count: result.data.total })}
        </p>
        <ul className={result.isPlaceholderData ? "search-results stale" : "search-results"}>
          {result.data.list.map((record) => (
            <ResultRecord key={record.fileId} record={record} q={q} detailPath={detailPath} />
          ))}
        </ul>
        <Pagination
          page={page}
          pageSize={SEARCH_PAGE_SIZE}
          total={result.data.total}
          onPage={(p) => setParams({ q, page: String(p) })}
        />
      </>
    );
  }

  return (
    <div className="search-view">
      {modes && <SearchModes asking={false} onMode={(mode) => setParams(mode === "ask" ? { mode } : {})} />}
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is still an unknown element in some browsers we support */}
      <div className="search-bar" role="search">
        <input
          className="input"
          type="search"
          value={text}
          maxLength={100}
          onChange={(e) => setText(e.target.value)}
          placeholder={t("search.placeholder")}
          aria-label={t("search.label")}
          data-testid="search-input"
          // biome-ignore lint/a11y/noAutofocus: the page exists to type a query
          autoFocus
        />
      </div>
      {body}
    </div>
  );
}
