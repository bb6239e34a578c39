import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import type { SaverSnapshot } from "../lib/autosave.ts";
import "./save-status.css";

/**
 * Where the page's edits stand (lib/autosave.ts), under the player so it stays in sight while typing:
 * 保存中… / 已保存 / 离线，稍后重试 / the refusal with 重试. A conflict with another tab or device says so and
 * offers the latest version; the text typed and not saved stays in its line until then, and afterwards is
 * listed here to copy back.
 */
export function SaveStatus({
  snapshot,
  onReload,
  onRetry,
  onDismissKept,
}: {
  snapshot: SaverSnapshot;
  onReload: () => void;
  onRetry: () => void;
  onDismissKept: () => void;
}) {
  const { t } = useTranslation();
  const { state, kept, error } = snapshot;
  return (
    <>
      {state === "conflict" ? (
        <div className="save-conflict" role="alert" data-testid="save-conflict">
          <p>{t("transcript.conflictText")}</p>
          <Button size="sm" onClick={onReload} data-testid="conflict-reload">
            {t("transcript.conflictReload")}
          </Button>
        </div>
      ) : (
        <p className="save-status" data-state={state} aria-live="polite" data-testid="save-status">
          {(state === "pending" || state === "saving") && t("transcript.saving")}
          {state === "saved" && t("transcript.saved")}
          {state === "offline" && t("transcript.offline")}
          {state === "error" && (
            <>
              {t("transcript.saveFailed", { reason: error ?? "" })}{" "}
              <button type="button" className="link-button" onClick={onRetry}>
                {t("transcript.saveRetry")}
              </button>
            </>
          )}
        </p>
      )}
      {kept.length > 0 && (
        <div className="save-kept" data-testid="save-kept">
          <p>{t("transcript.keptTitle")}</p>
          <ul>
            {kept.map((k) => (
              <li key={`${k.index}-${k.text}`}>
                <span className="muted">{t("transcript.keptLine", { index: k.index + 1 })}</span>
                <q>{k.text}</q>
              </li>
            ))}
          </ul>
          <Button size="sm" variant="secondary" onClick={onDismissKept}>
            {t("transcript.keptDismiss")}
          </Button>
        </div>
      )}
    </>
  );
}
