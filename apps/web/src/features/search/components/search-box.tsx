import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import "./search.css";

/** The box above My records: Enter opens the search page (`searchPath?q=`). */
export function SearchBox({ searchPath }: { searchPath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [q, setQ] = useState("");
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is still an unknown element in some browsers we support
    <form
      className="search-box"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) navigate(`${searchPath}?${new URLSearchParams({ q: q.trim() }).toString()}`);
      }}
    >
      <input
        className="input"
        type="search"
        value={q}
        maxLength={100}
        onChange={(e) => setQ(e.target.value)}
        placeholder={t("search.placeholder")}
        aria-label={t("search.label")}
        data-testid="global-search-input"
      />
    </form>
  );
}
