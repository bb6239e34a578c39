import type { AdminFeedback, AdminHelpDoc } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import {
  type FeedbackFilter,
  type HelpFilter,
  useDeleteHelpDoc,
  useFeedback,
  useHelpDocs,
  useMarkHandled,
} from "../api/content.ts";
import { adminPath } from "../lib/areas.ts";
import { formatInstant } from "../lib/format.ts";
import { AdminSection } from "./admin-layout.tsx";
import { FeedbackReplyDialog } from "./feedback-reply-dialog.tsx";
import { HelpDocDialog } from "./help-doc-dialog.tsx";

const TABS = ["help", "feedback"] as const;
type Tab = (typeof TABS)[number];

/** Help documents and users' feedback, each a tab. */
export function ContentView() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab: Tab = search.get("tab") === "feedback" ? "feedback" : "help";
  return (
    <>
      <div className="tabs-list" role="tablist" aria-label={t("admin.content.title")}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            className="tabs-trigger"
            data-state={tab === name ? "active" : "inactive"}
            aria-selected={tab === name}
            onClick={() => setSearch(name === "help" ? {} : { tab: name }, { replace: true })}
            data-testid={`content-tab-${name}`}
          >
            {t(`admin.content.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel">{tab === "help" ? <HelpDocs /> : <FeedbackList />}</div>
    </>
  );
}

function HelpDocs() {
  const { t } = useTranslation();
  const table = useTableState<HelpFilter>({ sort: "sort", order: "asc", filters: ["q"] }, "help");
  const docs = useHelpDocs(table.query);
  const remove = useDeleteHelpDoc();
  const [editing, setEditing] = useState<AdminHelpDoc | "new" | null>(null);
  const [removing, setRemoving] = useState<AdminHelpDoc | null>(null);
  const columns: PagedColumn<AdminHelpDoc>[] = [
    { id: "sort", header: t("admin.field.sort"), sort: "sort", numeric: true, cell: (d) => d.sort },
    {
      id: "slug",
      header: t("admin.content.slug"),
      sort: "slug",
      cell: (d) => <span className="admin-mono">{d.slug}</span>,
    },
    {
      id: "title",
      header: t("admin.content.docTitleZh"),
      cell: (d) => (
        <>
          {d.title}
          <div className="muted">{d.titleEn}</div>
        </>
      ),
    },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (d) => (
        <span className="admin-actions">
          <Button size="sm" variant="secondary" onClick={() => setEditing(d)}>
            {t("admin.act.edit")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRemoving(d)}>
            {t("admin.act.remove")}
          </Button>
        </span>
      ),
    },
  ];
  return (
    <AdminSection
      title={t("admin.content.help")}
      actions={<Button onClick={() => setEditing("new")}>{t("admin.content.newDoc")}</Button>}
      testId="content-help"
    >
      <FilterBar
        values={table.filters}
        onApply={table.setFilters}
        fields={[{ name: "q", label: t("admin.content.search") }]}
      />
      <PagedTable
        caption={t("admin.content.help")}
        testId="help-table"
        columns={columns}
        rowKey={(d) => d.id}
        result={docs}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
      <HelpDocDialog
        doc={editing === "new" ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t("admin.content.removeTitle", { title: removing?.title ?? "" })}
        text={t("admin.content.removeText")}
        confirmLabel={t("admin.act.remove")}
        danger
        pending={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              toast.success(t("admin.content.removed"));
              setRemoving(null);
            },
          })
        }
      />
    </AdminSection>
  );
}

function FeedbackList() {
  const { t } = useTranslation();
  const table = useTableState<FeedbackFilter>({ sort: "createdAt", filters: ["handled", "userId"] }, "feedback");
  const feedback = useFeedback(table.query);
  const mark = useMarkHandled();
  const [replying, setReplying] = useState<AdminFeedback | null>(null);
  const columns: PagedColumn<AdminFeedback>[] = [
    {
      id: "createdAt",
      header: t("admin.field.createdAt"),
      sort: "createdAt",
      cell: (f) => <span className="admin-nowrap">{formatInstant(f.createdAt)}</span>,
    },
    {
      id: "user",
      header: t("admin.field.user"),
      cell: (f) =>
        f.userId === null ? (
          <span className="muted">{t("admin.content.anonymous")}</span>
        ) : (
          <Link to={adminPath("users", f.userId)}>{f.phone || `#${f.userId}`}</Link>
        ),
    },
    { id: "category", header: t("admin.content.category"), cell: (f) => f.category },
    {
      id: "content",
      header: t("admin.content.contentCol"),
      cell: (f) => (
        <>
          <div className="admin-clip" title={f.content}>
            {f.content}
          </div>
          {f.contact && (
            <div className="muted">
              {t("admin.content.contact")}: {f.contact}
            </div>
          )}
          {f.reply && <div className="muted">{t("admin.content.yourReply", { text: f.reply })}</div>}
        </>
      ),
    },
    {
      id: "shots",
      header: t("admin.content.screenshots"),
      cell: (f) =>
        f.images.length === 0 ? (
          "—"
        ) : (
          <span className="admin-shots">
            {f.images.map((src, i) => (
              <a key={src} href={src} target="_blank" rel="noreferrer">
                <img src={src} alt={t("admin.content.screenshotN", { n: i + 1 })} loading="lazy" />
              </a>
            ))}
          </span>
        ),
    },
    {
      id: "status",
      header: t("admin.field.status"),
      cell: (f) =>
        f.handledAt ? (
          <Tag tone="ok">{t("admin.content.handled")}</Tag>
        ) : (
          <Tag tone="off">{t("admin.content.unhandled")}</Tag>
        ),
    },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (f) => (
        <span className="admin-actions">
          <Button size="sm" variant="secondary" onClick={() => setReplying(f)}>
            {t("admin.content.reply")}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={mark.isPending}
            onClick={() => mark.mutate({ id: f.id, handled: !f.handledAt })}
          >
            {f.handledAt ? t("admin.content.markUnhandled") : t("admin.content.markHandled")}
          </Button>
        </span>
      ),
    },
  ];
  return (
    <AdminSection title={t("admin.content.feedback")} testId="content-feedback">
      <FilterBar
        values={table.filters}
        onApply={table.setFilters}
        fields={[
          {
            name: "handled",
            label: t("admin.content.handledFilter"),
            type: "select",
            options: [
              { value: "false", label: t("admin.content.unhandled") },
              { value: "true", label: t("admin.content.handled") },
            ],
          },
          { name: "userId", label: t("admin.field.id"), inputMode: "numeric" },
        ]}
      />
      <PagedTable
        caption={t("admin.content.feedback")}
        testId="feedback-table"
        columns={columns}
        rowKey={(f) => f.id}
        result={feedback}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
      <FeedbackReplyDialog feedback={replying} onClose={() => setReplying(null)} />
    </AdminSection>
  );
}
