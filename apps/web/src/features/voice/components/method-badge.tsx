import type { MyVoiceMethod } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";

/**
 * How a voice of mine is made, said plainly: "voice matching" (a library voice moved toward the
 * sample's pitch, formants and rate) unless the install has a clone engine — only then "clone".
 */
export function MethodBadge({ method }: { method: MyVoiceMethod }) {
  const { t } = useTranslation();
  return (
    <span className={`vk-badge vk-badge-${method}`} data-testid="method-badge">
      {t(`voiceKit.method.${method}`)}
    </span>
  );
}
