import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="center" role="status" aria-live="polite">
      <div className="spinner" />
      <span className="sr-only">{label ?? t("common.loading")}</span>
    </div>
  );
}

export function EmptyState({ icon = "○", text, action }: { icon?: ReactNode; text: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <div className="empty-icon" aria-hidden>
        {icon}
      </div>
      <div>{text}</div>
      {action}
    </div>
  );
}

export function ErrorState({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="empty" role="alert">
      <div className="empty-icon" aria-hidden>
        !
      </div>
      <div>{t("errors.loadFailed")}</div>
      {onRetry && (
        <Button variant="secondary" onClick={onRetry}>
          {t("common.retry")}
        </Button>
      )}
    </div>
  );
}

export function ProgressBar({ value, label }: { value: number; label?: string }) {
  return (
    <div
      className="progress"
      role="progressbar"
      aria-valuenow={value}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-label={label}
    >
      <span style={{ width: `${Math.max(0, Math.min(100, value))}%` }} />
    </div>
  );
}
