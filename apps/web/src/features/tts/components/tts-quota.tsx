import type { TtsQuota as Quota } from "@yuelu/contracts";
import { StatusCode, statusMessage } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { ProgressBar } from "@/components/ui/states.tsx";
import { percent } from "@/lib/format.ts";
import { currentLang } from "@/lib/i18n.ts";
import "./tts-quota.css";

/** The server's words for a used-up day (status 50003), with today's limit. */
export function quotaExceededMessage(quota: Quota): string {
  return statusMessage(StatusCode.TtsQuotaExceeded, currentLang(), { limit: quota.charsLimitToday });
}

export function isQuotaExceeded(quota: Quota | undefined): boolean {
  return Boolean(quota && quota.charsUsedToday >= quota.charsLimitToday);
}

/** Today's characters: used of allowed, and a clear message once none are left. */
export function TtsQuotaLine({ quota }: { quota: Quota | undefined }) {
  const { t, i18n } = useTranslation();
  if (!quota) return null;
  const fmt = (n: number) => n.toLocaleString(i18n.language);
  const left = Math.max(0, quota.charsLimitToday - quota.charsUsedToday);
  return (
    <div className="tts-quota" data-testid="tts-quota">
      <div className="tts-quota-head">
        <span className="field-label">{quota.member ? t("tts.quotaMember") : t("tts.quota")}</span>
        <span className="tts-quota-value">
          {t("tts.quotaUsed", { used: fmt(quota.charsUsedToday), limit: fmt(quota.charsLimitToday) })}
        </span>
      </div>
      <ProgressBar value={percent(quota.charsUsedToday, quota.charsLimitToday)} label={t("tts.quota")} />
      {isQuotaExceeded(quota) ? (
        <p className="error-text" role="alert" data-testid="quota-exceeded">
          {quotaExceededMessage(quota)}
        </p>
      ) : (
        <span className="muted tts-quota-left">{t("tts.quotaLeft", { left: fmt(left) })}</span>
      )}
    </div>
  );
}
