import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX } from "@yuelu/contracts/constants";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import type { WebhookCreateForm } from "../api/webhooks.ts";
import { isHttpUrl, webhookEventName } from "../lib/webhooks.ts";
import { TextField } from "./form-fields.tsx";

/**
 * A new operator-wide endpoint: URL, note, events. The page checks what it can (an http(s) URL, an
 * event); where the URL points is the server's to judge, and its refusal (10002) is shown here.
 */
export function WebhookFormDialog({
  open,
  pending,
  serverError,
  onSubmit,
  onClose,
}: {
  open: boolean;
  pending: boolean;
  serverError?: string;
  onSubmit: (form: WebhookCreateForm) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={t("admin.webhooks.create")}>
      {open && <WebhookForm pending={pending} serverError={serverError} onSubmit={onSubmit} onClose={onClose} />}
    </Dialog>
  );
}

function WebhookForm({
  pending,
  serverError,
  onSubmit,
  onClose,
}: {
  pending: boolean;
  serverError?: string;
  onSubmit: (form: WebhookCreateForm) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["transcription.finished"]);
  const [tried, setTried] = useState(false);
  const urlOk = isHttpUrl(url.trim());
  const eventsOk = events.length > 0;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!urlOk || !eventsOk) return;
    onSubmit({ url: url.trim(), description: description.trim(), events });
  };
  const toggle = (type: string, on: boolean) =>
    setEvents((now) => (on ? [...now, type] : now.filter((e) => e !== type)));

  return (
    <form onSubmit={submit} className="admin-form" noValidate data-testid="webhook-form">
      <TextField
        label={t("admin.webhooks.url")}
        value={url}
        onChange={setUrl}
        maxLength={WEBHOOK_URL_MAX}
        placeholder={t("admin.webhooks.urlPlaceholder")}
        invalid={tried && !urlOk}
        hint={tried && !urlOk ? t("admin.webhooks.urlInvalid") : undefined}
        testId="webhook-url"
      />
      <TextField
        label={t("admin.webhooks.description")}
        value={description}
        onChange={setDescription}
        maxLength={WEBHOOK_DESCRIPTION_MAX}
        testId="webhook-description"
      />
      <fieldset className="field admin-webhook-events">
        <legend className="field-label">{t("admin.webhooks.events")}</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="check-label">
            <input
              type="checkbox"
              className="check"
              checked={events.includes(type)}
              onChange={(e) => toggle(type, e.target.checked)}
            />
            <span>{webhookEventName(t, type)}</span>
            <code className="muted admin-mono">{type}</code>
          </label>
        ))}
        {tried && !eventsOk && <p className="error-text">{t("admin.webhooks.eventsInvalid")}</p>}
      </fieldset>
      {serverError && (
        <p className="error-text" role="alert" data-testid="webhook-form-error">
          {serverError}
        </p>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t("admin.act.cancel")}
        </Button>
        <Button type="submit" disabled={pending} data-testid="webhook-submit">
          {pending ? t("admin.act.creating") : t("admin.act.create")}
        </Button>
      </div>
    </form>
  );
}
