import type { MyVoiceMethod } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { MethodBadge } from "./method-badge.tsx";

/** What "my voice" is on this install, in plain words; and a word when no worker runs to make it now. */
export function MethodNote({ method, available }: { method: MyVoiceMethod; available?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="vk-method" data-testid="method-note" data-method={method}>
      <div className="vk-method-head">
        <MethodBadge method={method} />
        <strong>{t(`myVoice.methodTitle.${method}`)}</strong>
      </div>
      <p className="muted">{t(`myVoice.methodText.${method}`)}</p>
      {available === false && (
        <p className="vk-warning" role="note">
          {t("voiceKit.unavailable")}
        </p>
      )}
    </div>
  );
}
