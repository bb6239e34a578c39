import { useTranslation } from "react-i18next";
import { fieldChanges, shortValue } from "../lib/diff.ts";
import { compactJson } from "../lib/format.ts";

/**
 * An audit entry's before and after: the fields that changed, one line each (before → after), or
 * both values as JSON when they are not records.
 */
export function ChangeDiff({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useTranslation();
  const changes = fieldChanges(before, after);
  if (changes === null) {
    return (
      <div className="admin-diff-json">
        <div>
          <div className="field-label">{t("admin.audit.before")}</div>
          <pre className="admin-json">{compactJson(before) || "—"}</pre>
        </div>
        <div>
          <div className="field-label">{t("admin.audit.after")}</div>
          <pre className="admin-json">{compactJson(after) || "—"}</pre>
        </div>
      </div>
    );
  }
  if (changes.length === 0) return <p className="muted">{t("admin.audit.noChange")}</p>;
  return (
    <dl className="admin-diff" data-testid="audit-diff">
      {changes.map((c) => (
        <div key={c.key} className="admin-diff-row">
          <dt className="admin-mono">{c.key}</dt>
          <dd className="admin-mono">
            <span className="sr-only">{t("admin.audit.before")}: </span>
            <del>{shortValue(c.before)}</del>
            <span aria-hidden> → </span>
            <span className="sr-only">{t("admin.audit.after")}: </span>
            <ins>{shortValue(c.after)}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}
