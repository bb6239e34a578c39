import type { VoiceItem } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { currentLang } from "@/lib/i18n.ts";
import { type StoredVoice, voiceName } from "../lib/voice-bank.ts";
import { VoiceLibraryBrowser } from "./voice-library-browser.tsx";
import "./voice-picker.css";

/**
 * The voice the text is read with: a library voice (from the voice bank or chosen here, in the
 * library opened as a dialog), or none — the default voice of the text's language.
 */
export function VoicePicker({
  voice,
  onChange,
}: {
  voice: StoredVoice | null;
  onChange: (voice: VoiceItem | null) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const lang = currentLang();
  const labels = voice?.labels;
  return (
    <div className="voice-picker" data-testid="voice-picker" data-prompt-id={voice?.promptId ?? ""}>
      <span className="field-label">{t("tts.voice")}</span>
      <div className="voice-picker-current">
        <span className="voice-picker-icon" aria-hidden>
          ♪
        </span>
        <div className="voice-picker-text">
          <strong data-testid="voice-name">{voice ? voiceName(voice, lang) : t("tts.defaultVoice")}</strong>
          <span className="muted">
            {labels
              ? [labels.language, labels.gender, labels.ageGroup, labels.style].join(" · ")
              : voice
                ? ""
                : t("tts.defaultVoiceHint")}
          </span>
        </div>
      </div>
      <div className="voice-picker-actions">
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)} data-testid="choose-voice">
          {voice ? t("tts.changeVoice") : t("tts.chooseVoice")}
        </Button>
        {voice && (
          <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
            {t("tts.useDefaultVoice")}
          </Button>
        )}
      </div>
      <Dialog open={open} onOpenChange={setOpen} title={t("tts.pickTitle")} wide className="voice-picker-dialog">
        <VoiceLibraryBrowser
          action="pick"
          selectedId={voice?.promptId ?? null}
          onChoose={(v) => {
            onChange(v);
            setOpen(false);
          }}
        />
      </Dialog>
    </div>
  );
}
