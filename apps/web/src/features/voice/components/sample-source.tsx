import { type Lang, MY_VOICE_MAX_SECONDS, MY_VOICE_MIN_SECONDS } from "@yuelu/contracts/constants";
import { useCallback, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDuration, formatSize } from "@/lib/format.ts";
import { readMediaDuration } from "@/lib/media-duration.ts";
import type { Take } from "../hooks/use-recorder.ts";
import { AUDIO_ACCEPT, checkAudioFile } from "../lib/upload-check.ts";
import { SampleRecorder } from "./sample-recorder.tsx";

/** A sample ready to send: a take of 10–120 s, or a file (its length checked when the browser can read it). */
export interface Sample {
  file: File;
  seconds: number | null;
}

/** Where the voice sample comes from: the guided recorder, or a file of the user's. */
export function SampleSource({ language, onSample }: { language: Lang; onSample: (sample: Sample | null) => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<"record" | "upload">("record");
  const [picked, setPicked] = useState<Sample | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const inputId = useId();

  const onTake = useCallback(
    (take: Take | null) => onSample(take ? { file: take.file, seconds: take.seconds } : null),
    [onSample],
  );

  const choose = (next: "record" | "upload") => {
    setMode(next);
    setPicked(null);
    setRefusal(null);
    onSample(null);
  };

  const pick = async (file: File | undefined) => {
    setPicked(null);
    setRefusal(null);
    onSample(null);
    if (!file) return;
    const reason = checkAudioFile(file);
    if (reason) return setRefusal(t(`voiceKit.refused.${reason}`, { name: file.name }));
    const seconds = await readMediaDuration(file);
    if (seconds !== null && seconds < MY_VOICE_MIN_SECONDS)
      return setRefusal(t("myVoice.fileTooShort", { seconds: Math.floor(seconds), min: MY_VOICE_MIN_SECONDS }));
    if (seconds !== null && seconds > MY_VOICE_MAX_SECONDS)
      return setRefusal(t("myVoice.fileTooLong", { max: MY_VOICE_MAX_SECONDS }));
    const sample = { file, seconds };
    setPicked(sample);
    onSample(sample);
  };

  return (
    <div className="vk-sample-source">
      <div className="vk-segments" role="radiogroup" aria-label={t("myVoice.sampleFrom")}>
        {(["record", "upload"] as const).map((m) => (
          <label key={m} className="vk-segment" data-checked={mode === m ? "1" : "0"}>
            <input
              type="radio"
              name={`${inputId}-mode`}
              checked={mode === m}
              onChange={() => choose(m)}
              data-testid={`sample-${m}`}
            />
            <span>{t(`myVoice.from.${m}`)}</span>
          </label>
        ))}
      </div>
      {mode === "record" ? (
        <SampleRecorder language={language} onTake={onTake} />
      ) : (
        <div className="vk-file-pick">
          <label className="btn btn-secondary" htmlFor={inputId}>
            {t("myVoice.pickFile")}
          </label>
          <input
            id={inputId}
            className="sr-only"
            type="file"
            accept={AUDIO_ACCEPT}
            onChange={(e) => void pick(e.target.files?.[0])}
            data-testid="sample-file"
          />
          <span className="muted">
            {t("myVoice.fileHint", { min: MY_VOICE_MIN_SECONDS, max: MY_VOICE_MAX_SECONDS })}
          </span>
          {picked && (
            <p className="vk-file-picked" data-testid="sample-picked">
              <strong>{picked.file.name}</strong>{" "}
              <span className="muted">
                {formatSize(picked.file.size)}
                {picked.seconds !== null && ` · ${formatDuration(picked.seconds)}`}
              </span>
            </p>
          )}
        </div>
      )}
      {refusal && (
        <p className="error-text" role="alert" data-testid="sample-refused">
          {refusal}
        </p>
      )}
    </div>
  );
}
