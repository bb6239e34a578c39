import type { AdminQueue } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { EmptyState } from "@/components/ui/states.tsx";
import { formatCount } from "../lib/format.ts";
// a static table in the server-paged tables' style
import "@/components/ui/paged-table.css";

type QueueState = "waiting" | "active" | "delayed" | "failed" | "completed";

/** Each queue's jobs by state, failed ones in red. */
export function QueueDepths({ queues, completed }: { queues: AdminQueue[]; completed?: boolean }) {
  const { t } = useTranslation();
  if (queues.length === 0) return <EmptyState text={t("table.empty")} />;
  const states: QueueState[] = [
    "waiting",
    "active",
    "delayed",
    "failed",
    ...(completed ? (["completed"] as const) : []),
  ];
  return (
    <div className="paged-table-scroll">
      <table className="paged-table" data-testid="queue-depths">
        <caption className="sr-only">{t("admin.overview.queues")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("admin.overview.queue")}</th>
            {states.map((s) => (
              <th key={s} scope="col" className="num">
                {t(`admin.overview.${s}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {queues.map((q) => (
            <tr key={q.name} data-testid={`queue-${q.name}`}>
              <th scope="row" className="admin-mono">
                {q.name}
              </th>
              {states.map((s) => (
                <td key={s} className={s === "failed" && q.failed > 0 ? "num danger-text" : "num"}>
                  {formatCount(q[s])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
