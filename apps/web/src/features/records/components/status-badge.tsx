import { useTranslation } from "react-i18next";
import { statusKind, statusLabel } from "@/utils/file-status.ts";
import "./status-badge.css";

/** Spec §4 display status: 未转写 / 排队中 / 转写中 N% / 已完成 / 失败. */
export function StatusBadge({ fileStatus, progress }: { fileStatus: number; progress: number }) {
  const { t } = useTranslation();
  return (
    <span className={`status status-${statusKind(fileStatus)}`} data-testid="record-status">
      {statusLabel(t, fileStatus, progress)}
    </span>
  );
}
