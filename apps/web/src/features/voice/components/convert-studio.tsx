import { CONVERT_SEMITONES, SONG_MAX_BYTES, SONG_MAX_SECONDS, VOICE_WORK_TITLE_MAX } from "@yuelu/contracts/constants";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { RangeSlider } from "@/components/ui/range-slider.tsx";
import { formatDuration, formatSize } from "@/lib/format.ts";
import { readMediaDuration } from "@/lib/media-duration.ts";
import type { FormUpload } from "@/lib/upload-form.ts";
import { useVoiceCapabilities } from "../api/get-capabilities.ts";
import { useVoiceQuota } from "../api/get-quota.ts";
import { voicePaths } from "../api/paths.ts";
import type { VoiceWork } from "../api/types.ts";
import { useUpload } from "../hooks/use-upload.ts";
import { newRequestId } from "../lib/request-id.ts";
import { AUDIO_ACCEPT, checkAudioFile } from "../lib/upload-check.ts";
import { UploadProgress } from "./upload-progress.tsx";
import { VoiceChoice, type VoicePick } from "./voice-choice.tsx";
import { isVoiceQuotaUsed, VoiceQuotaLine } from "./voice-quota.tsx";
import { signed, VoiceWorksList } from "./voice-works-list.tsx";
import { WorkResult } from "./work-result.tsx";
import "./voice.css";

/**
 * /song-conversion: a song of the user's (sent with its progress) sung again in another voice — the
 * library's or one of mine — moved by some semitones. Create → progress → the before/after player
 * with the waveform; my converted songs below.
 */
export function ConvertStudio() {
  const { t } = useTranslation();
  const quota = useVoiceQuota();
  const capabilities = useVoiceCapabilities();
  const upload = useUpload<VoiceWork>(voicePaths.convert);
  const [song, setSong] = useState<{ file: File; seconds: number | null } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [semitones, setSemitones] = useState<number>(CONVERT_SEMITONES.default);
  const [voice, setVoice] = useState<VoicePick>({});
  const [title, setTitle] = useState("");
  const [work, setWork] = useState<VoiceWork | null>(null);
  const lastRequest = useRef<FormUpload | null>(null);
  const ids = { file: useId(), title: useId() };
  const quotaUsed = isVoiceQuotaUsed(quota.data);

  const pick = async (file: File | undefined) => {
    setSong(null);
    setRefusal(null);
    upload.reset();
    if (!file) return;
    const reason = checkAudioFile(file);
    if (reason)
      return setRefusal(t(`voiceKit.refused.${reason}`, { name: file.name, max: formatSize(SONG_MAX_BYTES) }));
    const seconds = await readMediaDuration(file);
    if (seconds !== null && seconds > SONG_MAX_SECONDS)
      return setRefusal(t("convert.tooLong", { max: formatDuration(SONG_MAX_SECONDS) }));
    setSong({ file, seconds });
  };

  const send = async (req: FormUpload) => {
    lastRequest.current = req;
    const created = await upload.start(req);
    if (created) setWork(created);
  };

  const create = () => {
    if (!song) return setRefusal(t("convert.needSong"));
    void send({
      fields: {
        semitones,
        title: title.trim() || undefined,
        promptId: voice.promptId,
        myVoiceId: voice.myVoiceId,
        requestId: newRequestId(),
      },
      file: { field: "file", blob: song.file, name: song.file.name },
    });
  };

  return (
    <div className="vk-page" data-testid="convert-studio">
      <div className="vk-studio">
        <div className="vk-studio-main">
          <div className="vk-drop">
            <span className="vk-drop-icon" aria-hidden>
              ♫
            </span>
            <label className="btn btn-primary" htmlFor={ids.file}>
              {song ? t("convert.otherSong") : t("convert.pickSong")}
            </label>
            <input
              id={ids.file}
              className="sr-only"
              type="file"
              accept={AUDIO_ACCEPT}
              onChange={(e) => void pick(e.target.files?.[0])}
              data-testid="song-file"
            />
            <span className="muted">
              {t("convert.songHint", { size: formatSize(SONG_MAX_BYTES), time: formatDuration(SONG_MAX_SECONDS) })}
            </span>
            {song && (
              <p className="vk-file-picked" data-testid="song-picked">
                <strong>{song.file.name}</strong>{" "}
                <span className="muted">
                  {formatSize(song.file.size)}
                  {song.seconds !== null && ` · ${formatDuration(song.seconds)}`}
                </span>
              </p>
            )}
          </div>
          {refusal && (
            <p className="error-text" role="alert" data-testid="song-refused">
              {refusal}
            </p>
          )}
          <p className="muted vk-hint">{t("convert.how")}</p>
        </div>
        <aside className="vk-studio-side" aria-label={t("convert.settings")}>
          <VoiceChoice value={voice} onChange={setVoice} />
          <RangeSlider
            label={t("convert.semitones")}
            range={CONVERT_SEMITONES}
            step={1}
            value={semitones}
            text={t("voiceKit.semitones", { value: signed(semitones) })}
            onChange={setSemitones}
            testId="semitones"
          />
          <label className="field" htmlFor={ids.title}>
            <span className="field-label">{t("voiceKit.titleOptional")}</span>
            <input
              id={ids.title}
              className="input"
              value={title}
              maxLength={VOICE_WORK_TITLE_MAX}
              placeholder={song?.file.name.replace(/\.[^.]+$/, "") ?? ""}
              onChange={(e) => setTitle(e.target.value)}
            />
          </label>
          <VoiceQuotaLine quota={quota.data} />
          {capabilities.data?.available === false && (
            <p className="vk-warning" role="note">
              {t("voiceKit.unavailable")}
            </p>
          )}
          {upload.state.phase === "uploading" && (
            <UploadProgress loaded={upload.state.loaded} total={upload.state.total} onCancel={upload.cancel} />
          )}
          {upload.state.phase === "failed" && (
            <p className="error-text" role="alert" data-testid="convert-problem">
              {upload.state.message}
            </p>
          )}
          <Button
            size="lg"
            block
            onClick={create}
            disabled={upload.busy || quotaUsed || !song}
            data-testid="convert-create"
          >
            {upload.busy ? t("voiceKit.sending") : t("convert.create")}
          </Button>
        </aside>
      </div>
      {work && (
        <WorkResult
          key={work.workId}
          work={work}
          onRetry={() =>
            lastRequest.current &&
            void send({ ...lastRequest.current, fields: { ...lastRequest.current.fields, requestId: newRequestId() } })
          }
        />
      )}
      <VoiceWorksList kind="convert" onDeleted={(id) => work?.workId === id && setWork(null)} />
    </div>
  );
}
