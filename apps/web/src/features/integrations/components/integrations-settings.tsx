import { useTranslation } from "react-i18next";
import { ApiKeysSection } from "./api-keys-section.tsx";
import { WebhooksSection } from "./webhooks-section.tsx";
import "./integrations.css";

/**
 * /personalInfo?menu=developer: what an integrator needs — API keys for scripts, webhooks for
 * events (docs/integrators.md). Loaded lazily: most users never open it.
 */
export default function IntegrationsSettings() {
  const { t } = useTranslation();
  return (
    <div className="integrations" data-testid="integrations">
      <p className="muted">{t("integrations.intro")}</p>
      <ApiKeysSection />
      <WebhooksSection />
    </div>
  );
}
