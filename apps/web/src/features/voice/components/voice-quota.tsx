import { useTranslation } from "react-i18next";
import { ProgressBar } from "@/components/ui/states.tsx";
import { percent } from "@/lib/format.ts";
import type { VoiceQuota } from "../api/types.ts";

export function isVoiceQuotaUsed(quota: VoiceQuota | undefined): boolean {
  return Boolean(quota && quota.used >= quota.limit);
}

/** Today's voice works (songs sung or converted, voices trained): made of allowed, and a clear word once none are left. */
export function VoiceQuotaLine({ quota }: { quota: VoiceQuota | undefined }) {
  const { t } = useTranslation();
  if (!quota) return null;
  const left = Math.max(0, quota.limit - quota.used);
  return (
    <div className="vk-quota" data-testid="voice-quota">
      <div className="vk-quota-head">
        <span className="field-label">{quota.member ? t("voiceKit.quotaMember") : t("voiceKit.quota")}</span>
        <span className="vk-quota-value">{t("voiceKit.quotaUsed", { used: quota.used, limit: quota.limit })}</span>
      </div>
      <ProgressBar value={percent(quota.used, quota.limit)} label={t("voiceKit.quota")} />
      {isVoiceQuotaUsed(quota) ? (
        <p className="error-text" role="alert" data-testid="voice-quota-used">
          {t("voiceKit.quotaExceeded", { limit: quota.limit })}
        </p>
      ) : (
        <span className="muted vk-quota-left">{t("voiceKit.quotaLeft", { count: left })}</span>
      )}
    </div>
  );
}
