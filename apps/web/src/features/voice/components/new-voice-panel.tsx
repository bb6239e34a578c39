import { useQueryClient } from "@tanstack/react-query";
import { type Lang, VOICE_NAME_MAX } from "@yuelu/contracts/constants";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { currentLang } from "@/lib/i18n.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { voicePaths } from "../api/paths.ts";
import type { MyVoice } from "../api/types.ts";
import { useUpload } from "../hooks/use-upload.ts";
import { newRequestId } from "../lib/request-id.ts";
import { type Sample, SampleSource } from "./sample-source.tsx";
import { UploadProgress } from "./upload-progress.tsx";

/**
 * A new voice: its name and language, a sample (recorded with the guided recorder or a file), sent
 * with its progress. One click makes one voice: the button is off while sending and the call
 * carries a fresh requestId, so a repeated click is answered with the same voice.
 */
export function NewVoicePanel({
  blocked,
  onCreated,
  onCancel,
}: {
  /** why nothing may be sent now (today's works used up), said above */
  blocked: boolean;
  onCreated: (voice: MyVoice) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const upload = useUpload<MyVoice>(voicePaths.createVoice);
  const [name, setName] = useState("");
  const [language, setLanguage] = useState<Lang>(currentLang());
  const [sample, setSample] = useState<Sample | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const nameId = useId();
  const langId = useId();

  const submit = async () => {
    const trimmed = name.trim();
    if ([...trimmed].length < 1 || [...trimmed].length > VOICE_NAME_MAX)
      return setProblem(t("myVoice.nameInvalid", { max: VOICE_NAME_MAX }));
    if (!sample) return setProblem(t("myVoice.needSample"));
    setProblem(null);
    const created = await upload.start({
      fields: { name: trimmed, language, requestId: newRequestId() },
      file: { field: "file", blob: sample.file, name: sample.file.name },
    });
    if (!created) return;
    void client.invalidateQueries({ queryKey: queryKeys.voice.myVoices });
    void client.invalidateQueries({ queryKey: queryKeys.voice.quota });
    toast.success(t("myVoice.created", { name: created.name }));
    onCreated(created);
  };

  const failed = upload.state.phase === "failed" ? upload.state.message : null;
  return (
    <section className="vk-new" aria-labelledby={`${nameId}-title`} data-testid="new-voice">
      <h2 id={`${nameId}-title`} className="section-title">
        {t("myVoice.newTitle")}
      </h2>
      <div className="vk-new-fields">
        <label className="field" htmlFor={nameId}>
          <span className="field-label">{t("myVoice.name")}</span>
          <input
            id={nameId}
            className="input"
            value={name}
            maxLength={VOICE_NAME_MAX}
            placeholder={t("myVoice.namePlaceholder")}
            onChange={(e) => {
              setName(e.target.value);
              setProblem(null);
            }}
            data-testid="voice-name-input"
          />
        </label>
        <label className="field" htmlFor={langId}>
          <span className="field-label">{t("myVoice.language")}</span>
          <select
            id={langId}
            className="input select"
            value={language}
            onChange={(e) => setLanguage(e.target.value === "en" ? "en" : "zh")}
            data-testid="voice-language"
          >
            <option value="zh">{t("voiceKit.lang.zh")}</option>
            <option value="en">{t("voiceKit.lang.en")}</option>
          </select>
        </label>
      </div>
      <SampleSource key={language} language={language} onSample={setSample} />
      {upload.state.phase === "uploading" && (
        <UploadProgress loaded={upload.state.loaded} total={upload.state.total} onCancel={upload.cancel} />
      )}
      {(problem || failed) && (
        <p className="error-text" role="alert" data-testid="new-voice-problem">
          {problem || failed}
        </p>
      )}
      <div className="vk-new-actions">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={upload.busy}>
            {t("common.cancel")}
          </Button>
        )}
        <Button onClick={() => void submit()} disabled={upload.busy || blocked || !sample} data-testid="create-voice">
          {upload.busy ? t("voiceKit.sending") : t("myVoice.create")}
        </Button>
      </div>
    </section>
  );
}
