import * as Popover from "@radix-ui/react-popover";
import { SPEAKER_NAME_MAX } from "@yuelu/contracts/constants";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { checkSpeakerName } from "../lib/speaker-name.ts";
import "./speaker-rename-popover.css";

/**
 * Spec §2/§5 speaker-name popover: empty or unchanged input just closes; only Chinese, English and
 * digits, no spaces or symbols; 10 characters at most; optionally every segment of this speaker.
 * The other speakers' names are offered as suggestions (spec §3 Speaker state).
 */
export function SpeakerRenamePopover({
  name,
  suggestions,
  onRename,
  onOpenChange: notifyOpen,
  children,
}: {
  name: string;
  suggestions: string[];
  onRename: (name: string, renameAll: boolean) => Promise<unknown>;
  /** told when the popover opens and closes */
  onOpenChange?: (open: boolean) => void;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const [all, setAll] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    notifyOpen?.(next);
    if (next) {
      setValue("");
      setError(null);
      setAll(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const check = checkSpeakerName(value, name);
    if (check.kind === "close") return onOpenChange(false);
    if (check.kind === "invalid") return setError(t("transcript.speakerInvalid"));
    if (check.kind === "tooLong") return setError(t("transcript.speakerTooLong"));
    setPending(true);
    try {
      await onRename(check.name, all);
      onOpenChange(false);
    } catch {
      // the API client has shown the error; the popover stays open to correct it
    } finally {
      setPending(false);
    }
  };

  const others = suggestions.filter((s) => s !== name);
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger className="speaker-name" title={t("transcript.speakerTitle")}>
        {children}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover speaker-popover" align="start" sideOffset={6} data-testid="speaker-popover">
          <form onSubmit={submit} className="form">
            <strong>{t("transcript.speakerTitle")}</strong>
            <input
              className="input"
              value={value}
              maxLength={SPEAKER_NAME_MAX}
              placeholder={t("transcript.speakerPlaceholder")}
              aria-label={t("transcript.speakerLabel")}
              aria-invalid={error !== null}
              onChange={(e) => {
                setValue(e.target.value);
                setError(null);
              }}
              // biome-ignore lint/a11y/noAutofocus: the popover exists to type this
              autoFocus
            />
            {error && (
              <p className="error-text" role="alert">
                {error}
              </p>
            )}
            {others.length > 0 && (
              <div className="chips">
                {others.map((s) => (
                  <button key={s} type="button" className="chip chip-button" onClick={() => setValue(s)}>
                    {s}
                  </button>
                ))}
              </div>
            )}
            <label className="check-label">
              <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
              {t("transcript.renameAll", { name })}
            </label>
            <div className="dialog-actions">
              <Button variant="secondary" size="sm" onClick={() => onOpenChange(false)}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" size="sm" disabled={pending} data-testid="speaker-confirm">
                {t("common.confirm")}
              </Button>
            </div>
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
