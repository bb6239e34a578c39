import { useId } from "react";
import { useTranslation } from "react-i18next";
import { taskPhase } from "@/lib/task-phase.ts";
import { useLibraryVoices } from "../api/get-library-voices.ts";
import { useMyVoices } from "../api/my-voices.ts";

/** Which voice sings or converts: the default, a library voice, or one of my ready voices. */
export type VoicePick = { promptId?: number; myVoiceId?: number };

const encode = (pick: VoicePick) => (pick.myVoiceId ? `m${pick.myVoiceId}` : pick.promptId ? `p${pick.promptId}` : "");

function decode(value: string): VoicePick {
  const id = Number(value.slice(1));
  if (value.startsWith("m") && id > 0) return { myVoiceId: id };
  if (value.startsWith("p") && id > 0) return { promptId: id };
  return {};
}

export function VoiceChoice({
  value,
  onChange,
  testId = "voice-choice",
}: {
  value: VoicePick;
  onChange: (pick: VoicePick) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const library = useLibraryVoices();
  const mine = useMyVoices();
  const ready = (mine.data?.list ?? []).filter((v) => taskPhase(v.status) === "done");
  const voices = (library.data?.list ?? []).filter((v) => v.available);
  return (
    <div className="field vk-choice">
      <label className="field-label" htmlFor={id}>
        {t("voiceKit.voice")}
      </label>
      <select
        id={id}
        className="input select"
        value={encode(value)}
        onChange={(e) => onChange(decode(e.target.value))}
        data-testid={testId}
      >
        <option value="">{t("voiceKit.defaultVoice")}</option>
        {ready.length > 0 && (
          <optgroup label={t("voiceKit.myVoices")}>
            {ready.map((v) => (
              <option key={v.voiceId} value={`m${v.voiceId}`}>
                {v.name}
              </option>
            ))}
          </optgroup>
        )}
        {voices.length > 0 && (
          <optgroup label={t("voiceKit.libraryVoices")}>
            {voices.map((v) => (
              <option key={v.promptId} value={`p${v.promptId}`}>
                {`${v.name} · ${v.labels.language} · ${v.labels.gender}`}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      {!mine.isPending && ready.length === 0 && (
        <span className="muted vk-choice-hint">{t("voiceKit.noMyVoices")}</span>
      )}
    </div>
  );
}
