import { type Lang, LYRICS_MAX, SING_KEY, SING_TEMPO, VOICE_WORK_TITLE_MAX } from "@yuelu/contracts/constants";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { RangeSlider } from "@/components/ui/range-slider.tsx";
import { currentLang } from "@/lib/i18n.ts";
import type { FormUpload } from "@/lib/upload-form.ts";
import { useVoiceCapabilities } from "../api/get-capabilities.ts";
import { useVoiceQuota } from "../api/get-quota.ts";
import { useTunes } from "../api/get-tunes.ts";
import { voicePaths } from "../api/paths.ts";
import type { VoiceWork } from "../api/types.ts";
import { useUpload } from "../hooks/use-upload.ts";
import { newRequestId } from "../lib/request-id.ts";
import { fitSyllables, splitSyllables } from "../lib/syllables.ts";
import { type MelodyChoice, MelodySource } from "./melody-source.tsx";
import { PianoRoll } from "./piano-roll.tsx";
import { UploadProgress } from "./upload-progress.tsx";
import { VoiceChoice, type VoicePick } from "./voice-choice.tsx";
import { isVoiceQuotaUsed, VoiceQuotaLine } from "./voice-quota.tsx";
import { signed, VoiceWorksList } from "./voice-works-list.tsx";
import { WorkResult } from "./work-result.tsx";
import "./voice.css";

/**
 * /songConversion, AI sings for you: a built-in tune or a MIDI file, lyrics fitted one syllable per
 * note (counted as you type), key and tempo, a voice (the library's or one of mine); the piano roll
 * shows what will be sung. Create → progress → player and download; my sung songs below.
 */
export function SingStudio() {
  const { t } = useTranslation();
  const tunes = useTunes();
  const quota = useVoiceQuota();
  const capabilities = useVoiceCapabilities();
  const upload = useUpload<VoiceWork>(voicePaths.sing);
  const [melody, setMelody] = useState<MelodyChoice | null>(null);
  const [lyrics, setLyrics] = useState("");
  const [language, setLanguage] = useState<Lang>(currentLang());
  const [keyShift, setKeyShift] = useState<number>(SING_KEY.default);
  const [tempo, setTempo] = useState<number>(SING_TEMPO.default);
  const [voice, setVoice] = useState<VoicePick>({});
  const [title, setTitle] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [work, setWork] = useState<VoiceWork | null>(null);
  const lastRequest = useRef<FormUpload | null>(null);
  const ids = { lyrics: useId(), lang: useId(), title: useId() };

  // the first tune, once the tunes are here; a tune's own lyrics when it is chosen
  const firstTune = tunes.data?.list[0];
  useEffect(() => {
    if (firstTune) setMelody((m) => m ?? { kind: "tune", tune: firstTune });
  }, [firstTune]);
  const tuneId = melody?.kind === "tune" ? melody.tune.id : null;
  const tuneLyrics = melody?.kind === "tune" ? melody.tune.lyrics : null;
  useEffect(() => {
    if (tuneId && tuneLyrics !== null) setLyrics(tuneLyrics);
  }, [tuneId, tuneLyrics]);

  const notes = melody ? (melody.kind === "tune" ? melody.tune.melody : melody.melody.notes) : [];
  const bpm = melody ? (melody.kind === "tune" ? melody.tune.bpm : melody.melody.bpm) : 120;
  const syllables = splitSyllables(lyrics, language);
  const quotaUsed = isVoiceQuotaUsed(quota.data);

  const send = async (req: FormUpload) => {
    lastRequest.current = req;
    setProblem(null);
    const created = await upload.start(req);
    if (created) setWork(created);
  };

  const create = () => {
    const text = lyrics.trim();
    if (!melody) return setProblem(t("sing.needMelody"));
    if (text.length === 0) return setProblem(t("sing.needLyrics"));
    if (text.length > LYRICS_MAX) return setProblem(t("sing.lyricsTooLong", { max: LYRICS_MAX }));
    if (syllables.length === 0) return setProblem(t("sing.needLyrics"));
    if (syllables.length > notes.length)
      return setProblem(t("sing.moreSyllables", { extra: syllables.length - notes.length }));
    const fields: FormUpload["fields"] = {
      ...(melody.kind === "tune" ? { tuneId: melody.tune.id } : {}),
      lyrics: text,
      language,
      keyShift,
      tempo,
      title: title.trim() || undefined,
      promptId: voice.promptId,
      myVoiceId: voice.myVoiceId,
      requestId: newRequestId(),
    };
    void send({
      fields,
      file: melody.kind === "midi" ? { field: "midi", blob: melody.file, name: melody.file.name } : undefined,
    });
  };

  const failed = upload.state.phase === "failed" ? upload.state.message : null;
  const over = notes.length > 0 && syllables.length > notes.length;
  const under = notes.length > 0 && syllables.length < notes.length;
  return (
    <div className="vk-page" data-testid="sing-studio">
      <div className="vk-studio">
        <div className="vk-studio-main">
          <MelodySource tunes={tunes} choice={melody} onChange={setMelody} />
          {melody && (
            <PianoRoll
              notes={notes}
              words={fitSyllables(syllables, notes.length, language)}
              bpm={bpm}
              tempo={tempo}
              keyShift={keyShift}
            />
          )}
          <div className="field">
            <div className="vk-lyrics-head">
              <label className="field-label" htmlFor={ids.lyrics}>
                {t("sing.lyrics")}
              </label>
              <span
                className={over ? "vk-count vk-count-over" : under ? "vk-count vk-count-off" : "vk-count"}
                data-testid="syllable-count"
                aria-live="polite"
              >
                {t("sing.syllableCount", { n: syllables.length, m: notes.length })}
              </span>
            </div>
            <textarea
              id={ids.lyrics}
              className="input vk-lyrics"
              rows={5}
              maxLength={LYRICS_MAX}
              value={lyrics}
              onChange={(e) => setLyrics(e.target.value)}
              placeholder={t("sing.lyricsPlaceholder")}
              data-testid="lyrics"
            />
            <span className={over ? "error-text vk-hint" : "muted vk-hint"} data-testid="syllable-hint">
              {over
                ? t("sing.moreSyllables", { extra: syllables.length - notes.length })
                : under
                  ? t("sing.fewerSyllables", { missing: notes.length - syllables.length })
                  : t(`sing.syllableRule.${language}`)}
            </span>
          </div>
        </div>
        <aside className="vk-studio-side" aria-label={t("sing.settings")}>
          <label className="field" htmlFor={ids.lang}>
            <span className="field-label">{t("sing.language")}</span>
            <select
              id={ids.lang}
              className="input select"
              value={language}
              onChange={(e) => setLanguage(e.target.value === "en" ? "en" : "zh")}
              data-testid="sing-language"
            >
              <option value="zh">{t("voiceKit.lang.zh")}</option>
              <option value="en">{t("voiceKit.lang.en")}</option>
            </select>
          </label>
          <VoiceChoice value={voice} onChange={setVoice} />
          <RangeSlider
            label={t("sing.key")}
            range={SING_KEY}
            step={1}
            value={keyShift}
            text={t("voiceKit.semitones", { value: signed(keyShift) })}
            onChange={setKeyShift}
            testId="key-shift"
          />
          <RangeSlider
            label={t("sing.tempo")}
            range={SING_TEMPO}
            step={0.05}
            value={tempo}
            text={t("sing.tempoValue", { value: tempo.toFixed(2), bpm: Math.round(bpm * tempo) })}
            onChange={setTempo}
            testId="tempo"
          />
          <label className="field" htmlFor={ids.title}>
            <span className="field-label">{t("voiceKit.titleOptional")}</span>
            <input
              id={ids.title}
              className="input"
              value={title}
              maxLength={VOICE_WORK_TITLE_MAX}
              placeholder={melody?.kind === "tune" ? melody.tune.name : ""}
              onChange={(e) => setTitle(e.target.value)}
            />
          </label>
          <VoiceQuotaLine quota={quota.data} />
          {capabilities.data?.available === false && (
            <p className="vk-warning" role="note">
              {t("voiceKit.unavailable")}
            </p>
          )}
          {upload.state.phase === "uploading" && upload.state.total > 0 && (
            <UploadProgress loaded={upload.state.loaded} total={upload.state.total} onCancel={upload.cancel} />
          )}
          {(problem || failed) && (
            <p className="error-text" role="alert" data-testid="sing-problem">
              {problem || failed}
            </p>
          )}
          <Button
            size="lg"
            block
            onClick={create}
            disabled={upload.busy || quotaUsed || !melody}
            data-testid="sing-create"
          >
            {upload.busy ? t("voiceKit.sending") : t("sing.create")}
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
      <VoiceWorksList kind="sing" onDeleted={(id) => work?.workId === id && setWork(null)} />
    </div>
  );
}
