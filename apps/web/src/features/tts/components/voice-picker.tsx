import type { MyVoice, VoiceItem } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { currentLang } from "@/lib/i18n.ts";
import { useReadyMyVoices } from "../api/get-my-voices.ts";
import { type StoredVoice, voiceName } from "../lib/voice-bank.ts";
import { VoiceLibraryBrowser } from "./voice-library-browser.tsx";
import "./voice-picker.css";

/**
 * The voice the text is read with: a library voice (from the voice bank or chosen here, in the
 * library opened as a dialog), one of my ready voices (made on /myVoice), or none — the default
 * voice of the text's language.
 */
export function VoicePicker({
  voice,
  onChange,
  mine = null,
  onMine,
}: {
  voice: StoredVoice | null;
  onChange: (voice: VoiceItem | null) => void;
  mine?: MyVoice | null;
  onMine?: (voice: MyVoice | null) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ready = useReadyMyVoices();
  const lang = currentLang();
  const labels = mine ? null : voice?.labels;
  return (
    <div
      className="voice-picker"
      data-testid="voice-picker"
      data-prompt-id={mine ? "" : (voice?.promptId ?? "")}
      data-my-voice-id={mine?.voiceId ?? ""}
    >
      <span className="field-label">{t("tts.voice")}</span>
      <div className="voice-picker-current">
        <span className="voice-picker-icon" aria-hidden>
          ♪
        </span>
        <div className="voice-picker-text">
          <strong data-testid="voice-name">
            {mine ? mine.name : voice ? voiceName(voice, lang) : t("tts.defaultVoice")}
          </strong>
          <span className="muted">
            {mine
              ? t("tts.myVoiceLabel", { method: t(`tts.myVoiceMethod.${mine.method}`) })
              : labels
                ? [labels.language, labels.gender, labels.ageGroup, labels.style].join(" · ")
                : voice
                  ? ""
                  : t("tts.defaultVoiceHint")}
          </span>
        </div>
      </div>
      <div className="voice-picker-actions">
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)} data-testid="choose-voice">
          {voice || mine ? t("tts.changeVoice") : t("tts.chooseVoice")}
        </Button>
        {(voice || mine) && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onMine?.(null);
              onChange(null);
            }}
          >
            {t("tts.useDefaultVoice")}
          </Button>
        )}
      </div>
      {onMine && ready.length > 0 && (
        <label className="voice-picker-mine">
          <span className="field-label">{t("tts.myVoices")}</span>
          <select
            className="input select"
            value={mine?.voiceId ?? ""}
            onChange={(e) => onMine(ready.find((v) => v.voiceId === Number(e.target.value)) ?? null)}
            data-testid="my-voice-select"
          >
            <option value="">{t("tts.myVoiceNone")}</option>
            {ready.map((v) => (
              <option key={v.voiceId} value={v.voiceId}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <Dialog open={open} onOpenChange={setOpen} title={t("tts.pickTitle")} wide className="voice-picker-dialog">
        <VoiceLibraryBrowser
          action="pick"
          selectedId={voice?.promptId ?? null}
          onChoose={(v) => {
            onMine?.(null);
            onChange(v);
            setOpen(false);
          }}
          selectedMineId={mine?.voiceId ?? null}
          onChooseMine={
            onMine &&
            ((v) => {
              onMine(v);
              setOpen(false);
            })
          }
        />
      </Dialog>
    </div>
  );
}
