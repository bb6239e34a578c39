import type { AdminEngines, AdminFailedJob, AdminSourceFailure, AdminStorageRow, AdminTool } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import { formatSize } from "@/lib/format.ts";
import { displayNickname } from "@/utils/nickname.ts";
import {
  type FailedJobFilter,
  useEngines,
  useFailedJobs,
  useJobAction,
  useQueues,
  useRetryFailed,
  useStorage,
} from "../api/system.ts";
import { adminPath } from "../lib/areas.ts";
import { compactJson, formatCount, formatInstant } from "../lib/format.ts";
import { AdminSection } from "./admin-layout.tsx";
import { InstallCard } from "./overview.tsx";
import { QueueDepths } from "./queue-depths.tsx";

const QUEUE_NAMES = ["housekeeping", "transcription", "tts", "tts-samples", "voice"] as const;

/** The system: version, engines and what to install, queues and failed jobs, storage per user. */
export function SystemView() {
  return (
    <>
      <div className="admin-grid admin-grid-wide">
        <InstallCard />
        <QueuesSection />
      </div>
      <EnginesSection />
      <FailedJobsSection />
      <StorageSection />
    </>
  );
}

function QueuesSection() {
  const { t } = useTranslation();
  const queues = useQueues();
  const retryAll = useRetryFailed();
  const [confirm, setConfirm] = useState(false);
  const failed = queues.data?.queues.reduce((n, q) => n + q.failed, 0) ?? 0;
  return (
    <AdminSection
      title={t("admin.system.queues")}
      actions={
        failed > 0 && (
          <Button size="sm" variant="secondary" onClick={() => setConfirm(true)} data-testid="retry-all-failed">
            {t("admin.system.retryAllFailed")}
          </Button>
        )
      }
      testId="system-queues"
    >
      {queues.data ? (
        <>
          <p className="muted admin-note">{t("admin.system.backend", { backend: queues.data.backend })}</p>
          <QueueDepths queues={queues.data.queues} completed />
        </>
      ) : queues.isError ? (
        <ErrorState onRetry={() => void queues.refetch()} />
      ) : (
        <Spinner />
      )}
      <ConfirmDialog
        open={confirm}
        title={t("admin.system.retryAllTitle")}
        text={t("admin.system.retryAllText")}
        confirmLabel={t("admin.system.retry")}
        pending={retryAll.isPending}
        onClose={() => setConfirm(false)}
        onConfirm={() =>
          retryAll.mutate(undefined, {
            onSuccess: (r) => {
              toast.success(t("admin.system.retriedToast", { count: r.retried }));
              setConfirm(false);
            },
          })
        }
      />
    </AdminSection>
  );
}

function EnginesSection() {
  const { t } = useTranslation();
  const engines = useEngines();
  return (
    <AdminSection title={t("admin.system.engines")} testId="system-engines">
      {engines.data ? (
        <EnginesBody data={engines.data} />
      ) : engines.isError ? (
        <ErrorState onRetry={() => void engines.refetch()} />
      ) : (
        <Spinner />
      )}
    </AdminSection>
  );
}

function EnginesBody({ data }: { data: AdminEngines }) {
  const { t } = useTranslation();
  return (
    <div className="admin-form">
      <div>
        <h3 className="section-title">{t("admin.system.missing")}</h3>
        {data.missing.length === 0 ? (
          <p className="muted">{t("admin.system.nothingMissing")}</p>
        ) : (
          <ul className="admin-list" data-testid="system-missing">
            {data.missing.map((m) => (
              <li key={`${m.what}-${m.problem}`}>
                <strong>{m.what}</strong> <span className="muted">{m.problem}</span>
                <div>
                  <code className="admin-command">{m.install}</code>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="section-title">{t("admin.system.models")}</h3>
        <p className="muted">
          {t("admin.system.modelsList")} <code className="admin-mono">{data.models.list}</code>
        </p>
        <p className="muted">
          {t("admin.system.modelsFetch")} <code className="admin-mono">{data.models.fetch}</code>
        </p>
      </div>
      <div data-testid="system-llm">
        <h3 className="section-title">{t("admin.system.llm")}</h3>
        {data.llm.configured ? (
          <p>
            <span className="admin-mono">
              {data.llm.model} @ {data.llm.host}
            </span>{" "}
            {data.llm.answering ? (
              <Tag tone="ok">{t("admin.system.available")}</Tag>
            ) : (
              <Tag tone="off">{data.llm.problem ?? t("admin.system.unavailable")}</Tag>
            )}
          </p>
        ) : (
          <p className="muted">{t("admin.system.llmOff")}</p>
        )}
      </div>
      {data.workers.length === 0 && <p className="danger-text">{t("admin.system.noWorkers")}</p>}
      {data.workers.map((w) => (
        <div key={w.workerId} className="admin-worker">
          <h3 className="section-title">
            {t("admin.system.worker", { host: w.hostname, pid: w.pid })}{" "}
            <span className="muted admin-note">{t("admin.system.seenAt", { time: formatInstant(w.seenAt) })}</span>
          </h3>
          <div className="paged-table-scroll">
            <table className="paged-table">
              <caption className="sr-only">{t("admin.system.engines")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("admin.system.kind")}</th>
                  <th scope="col">{t("admin.system.language")}</th>
                  <th scope="col">{t("admin.system.engine")}</th>
                  <th scope="col">{t("admin.field.status")}</th>
                  <th scope="col">{t("admin.system.fix")}</th>
                </tr>
              </thead>
              <tbody>
                {w.engines.map((e) => (
                  <tr key={`${e.kind}-${e.language}-${e.engine}`}>
                    <td>{e.kind}</td>
                    <td>{e.language}</td>
                    <td className="admin-mono">{e.engine}</td>
                    <td>
                      {e.available ? (
                        <Tag tone="ok">{t("admin.system.available")}</Tag>
                      ) : e.progress !== null ? (
                        <Tag tone="brand">{t("admin.system.downloading", { progress: Math.round(e.progress) })}</Tag>
                      ) : (
                        <Tag tone="off">{e.problem ?? t("admin.system.unavailable")}</Tag>
                      )}
                      {e.modelSource && (
                        <div className="muted admin-note" data-testid="engine-model-source">
                          {t("admin.system.modelFrom", { source: e.modelSource })}
                        </div>
                      )}
                    </td>
                    <td className="admin-mono">
                      {e.fix ?? ""}
                      <SourceFailures failures={e.sourceFailures} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ToolsTable tools={w.tools} caption={t("admin.system.tools")} />
        </div>
      ))}
      <div>
        <h3 className="section-title">{t("admin.system.apiTools")}</h3>
        <ToolsTable tools={data.apiTools} caption={t("admin.system.apiTools")} />
      </div>
    </div>
  );
}

/** Why each model source did not deliver (the worker tries them in turn: docs/chinese-speech.md). */
function SourceFailures({ failures }: { failures: AdminSourceFailure[] }) {
  const { t } = useTranslation();
  if (failures.length === 0) return null;
  return (
    <details data-testid="engine-source-failures">
      <summary>{t("admin.system.sourceFailures")}</summary>
      <ul className="admin-list">
        {failures.map((f, i) => (
          // the same source may fail for several files, and again on the next try
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
          <li key={i}>
            <strong>{f.source}</strong> {f.file}: {f.reason} <span className="muted">{f.detail}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

function ToolsTable({ tools, caption }: { tools: AdminTool[]; caption: string }) {
  const { t } = useTranslation();
  return (
    <div className="paged-table-scroll">
      <table className="paged-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("admin.system.tool")}</th>
            <th scope="col">{t("admin.field.status")}</th>
            <th scope="col">{t("admin.system.toolVersion")}</th>
            <th scope="col">{t("admin.system.path")}</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool.name}>
              <td className="admin-mono">{tool.name}</td>
              <td>
                {tool.available ? (
                  <Tag tone="ok">{tool.source ?? t("admin.system.available")}</Tag>
                ) : (
                  <Tag tone="off">{t("admin.system.unavailable")}</Tag>
                )}
              </td>
              <td className="admin-mono">{tool.version ?? ""}</td>
              <td className="admin-mono">{tool.available ? (tool.path ?? "") : (tool.install ?? "")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FailedJobsSection() {
  const { t } = useTranslation();
  const table = useTableState<FailedJobFilter>({ sort: "finishedOn", filters: ["queue"] }, "jobs");
  const jobs = useFailedJobs(table.query);
  const action = useJobAction();
  const [removing, setRemoving] = useState<AdminFailedJob | null>(null);
  const act = (job: AdminFailedJob, kind: "retry" | "remove") =>
    action.mutate(
      { queue: job.queue, id: job.id, action: kind },
      {
        onSuccess: () => {
          toast.success(kind === "retry" ? t("admin.system.jobRetried") : t("admin.system.jobRemoved"));
          setRemoving(null);
        },
      },
    );
  const columns: PagedColumn<AdminFailedJob>[] = [
    { id: "queue", header: t("admin.system.queueFilter"), cell: (j) => <span className="admin-mono">{j.queue}</span> },
    {
      id: "job",
      header: t("admin.system.jobId"),
      cell: (j) => (
        <>
          <span className="admin-mono">{j.id}</span> <span className="muted">{j.name}</span>
        </>
      ),
    },
    {
      id: "reason",
      header: t("admin.system.failedReason"),
      cell: (j) => <span className="danger-text">{j.failedReason}</span>,
    },
    {
      id: "attempts",
      header: t("admin.system.attempts"),
      numeric: true,
      cell: (j) => `${j.attemptsMade} / ${j.attempts}`,
    },
    {
      id: "failedAt",
      header: t("admin.system.failedAt"),
      sort: "finishedOn",
      cell: (j) => <span className="admin-nowrap">{formatInstant(j.failedAt)}</span>,
    },
    {
      id: "data",
      header: t("admin.system.data"),
      cell: (j) => (
        <details>
          <summary>{t("admin.act.view")}</summary>
          <pre className="admin-json">{compactJson(j.data)}</pre>
        </details>
      ),
    },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (j) => (
        <span className="admin-actions">
          <Button size="sm" variant="secondary" disabled={action.isPending} onClick={() => act(j, "retry")}>
            {t("admin.system.retry")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRemoving(j)}>
            {t("admin.system.removeJob")}
          </Button>
        </span>
      ),
    },
  ];
  return (
    <AdminSection title={t("admin.system.failedJobs")} testId="system-failed-jobs">
      <FilterBar
        values={table.filters}
        onApply={table.setFilters}
        fields={[
          {
            name: "queue",
            label: t("admin.system.queueFilter"),
            type: "select",
            options: QUEUE_NAMES.map((q) => ({ value: q, label: q })),
          },
        ]}
      />
      <PagedTable
        caption={t("admin.system.failedJobs")}
        testId="failed-jobs-table"
        columns={columns}
        rowKey={(j) => `${j.queue}:${j.id}`}
        result={jobs}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t("admin.system.removeJobTitle", { id: removing?.id ?? "" })}
        text={t("admin.system.removeJobText")}
        confirmLabel={t("admin.system.removeJob")}
        danger
        pending={action.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && act(removing, "remove")}
      />
    </AdminSection>
  );
}

function StorageSection() {
  const { t, i18n } = useTranslation();
  const table = useTableState({ sort: "bytes" }, "storage");
  const storage = useStorage(table.query);
  const columns: PagedColumn<AdminStorageRow>[] = [
    {
      id: "user",
      header: t("admin.field.user"),
      cell: (r) => (
        <Link to={adminPath("users", r.userId)}>
          {r.phone ?? `#${r.userId}`} <span className="muted">{displayNickname(r.nickName, i18n.language)}</span>
        </Link>
      ),
    },
    {
      id: "records",
      header: t("admin.system.records"),
      sort: "records",
      numeric: true,
      cell: (r) => formatCount(r.records),
    },
    {
      id: "recordBytes",
      header: t("admin.system.recordBytes"),
      sort: "recordBytes",
      numeric: true,
      cell: (r) => formatSize(r.recordBytes),
    },
    { id: "workBytes", header: t("admin.system.workBytes"), numeric: true, cell: (r) => formatSize(r.workBytes) },
    { id: "bytes", header: t("admin.system.bytes"), sort: "bytes", numeric: true, cell: (r) => formatSize(r.bytes) },
  ];
  return (
    <AdminSection
      title={t("admin.system.storage")}
      actions={
        storage.data && (
          <span className="muted">{t("admin.system.storageTotal", { size: formatSize(storage.data.totalBytes) })}</span>
        )
      }
      testId="system-storage"
    >
      <PagedTable
        caption={t("admin.system.storage")}
        testId="storage-table"
        columns={columns}
        rowKey={(r) => r.userId}
        result={storage}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
    </AdminSection>
  );
}
