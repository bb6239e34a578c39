import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";
import "./states.css";

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="center" role="status" aria-live="polite">
      <div className="spinner" />
      <span className="sr-only">{label ?? t("common.loading")}</span>
    </div>
  );
}

/** The round icon above an empty, error or status message. */
export function StateIcon({ children }: { children: ReactNode }) {
  return (
    <div className="empty-icon" aria-hidden>
      {children}
    </div>
  );
}

export function EmptyState({ icon = "○", text, action }: { icon?: ReactNode; text: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <StateIcon>{icon}</StateIcon>
      <div>{text}</div>
      {action}
    </div>
  );
}

export function ErrorState({ onRetry, message }: { onRetry?: () => void; message?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="empty" role="alert">
      <StateIcon>!</StateIcon>
      <div>{message ?? t("errors.loadFailed")}</div>
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
