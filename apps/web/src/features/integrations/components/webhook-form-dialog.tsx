import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX } from "@yuelu/contracts/constants";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { eventName } from "../lib/event-name.ts";

export interface WebhookForm {
  url: string;
  description: string;
  events: string[];
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * A new endpoint: its URL, a note, the events it receives. Checked here for what the page can
 * know (an http(s) URL, an event); where the URL points is the server's to judge (no private
 * addresses), and its refusal is shown under the form.
 */
export function WebhookFormDialog({
  open,
  pending,
  serverError,
  onSubmit,
  onClose,
}: {
  open: boolean;
  pending?: boolean;
  serverError?: string;
  onSubmit: (form: WebhookForm) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["transcription.finished"]);
  const [invalid, setInvalid] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setUrl("");
      setDescription("");
      setEvents(["transcription.finished"]);
      setInvalid(null);
    }
  }, [open]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isHttpUrl(url.trim())) return setInvalid(t("integrations.hookUrlInvalid"));
    if (events.length === 0) return setInvalid(t("integrations.hookEventsInvalid"));
    onSubmit({ url: url.trim(), description: description.trim(), events });
  };
  const toggle = (type: string, on: boolean) =>
    setEvents((now) => (on ? [...now, type] : now.filter((e) => e !== type)));
  const message = invalid ?? serverError;

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={t("integrations.createHook")}>
      <form onSubmit={submit} className="form" noValidate>
        <label className="field">
          <span className="field-label">{t("integrations.hookUrl")}</span>
          <input
            className="input"
            type="url"
            inputMode="url"
            value={url}
            maxLength={WEBHOOK_URL_MAX}
            placeholder={t("integrations.hookUrlPlaceholder")}
            onChange={(e) => {
              setUrl(e.target.value);
              setInvalid(null);
            }}
            aria-invalid={message !== undefined && message !== null}
            data-testid="hook-url"
            autoFocus
          />
        </label>
        <label className="field">
          <span className="field-label">{t("integrations.hookDescription")}</span>
          <input
            className="input"
            value={description}
            maxLength={WEBHOOK_DESCRIPTION_MAX}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="hook-description"
          />
        </label>
        <fieldset className="field hook-events">
          <legend className="field-label">{t("integrations.hookEvents")}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="hook-event">
              <input
                type="checkbox"
                className="check"
                checked={events.includes(type)}
                onChange={(e) => {
                  toggle(type, e.target.checked);
                  setInvalid(null);
                }}
              />
              <span>{eventName(t, type)}</span>
              <code className="muted">{type}</code>
            </label>
          ))}
        </fieldset>
        {message && (
          <p className="error-text" role="alert">
            {message}
          </p>
        )}
        <div className="dialog-actions">
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" disabled={pending} data-testid="hook-submit">
            {t("common.confirm")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
