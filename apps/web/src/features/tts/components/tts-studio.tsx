import type { MyVoice, TtsTask } from "@yuelu/contracts";
import { TTS_FORMATS, TTS_MAX_CHARS, TTS_PITCH, TTS_SPEED, TTS_VOLUME, ttsCharCount } from "@yuelu/contracts/constants";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { useReadyMyVoices } from "../api/get-my-voices.ts";
import { useSelectOptions } from "../api/get-select-options.ts";
import { useTtsQuota } from "../api/get-tts-quota.ts";
import { type StartTtsInput, useStartTts } from "../api/start-tts.ts";
import {
  clearVoiceBank,
  readMyVoiceChoice,
  readVoiceBank,
  type StoredVoice,
  storeVoiceBank,
} from "../lib/voice-bank.ts";
import { SongWorks } from "./song-works.tsx";
import { TextEditor } from "./text-editor.tsx";
import { isQuotaExceeded, quotaExceededMessage, TtsQuotaLine } from "./tts-quota.tsx";
import { TtsResult } from "./tts-result.tsx";
import { VoicePicker } from "./voice-picker.tsx";
import { VoiceSettings, type VoiceSettingsValue } from "./voice-settings.tsx";
import { WorksList } from "./works-list.tsx";
import "./tts-studio.css";

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff]/u;

/**
 * Text to speech: the text, a voice (preselected from the voice bank), speed, pitch, volume and
 * format; 'generate' checks the length and today's characters before it asks, then follows the
 * task to its player; 'my works' below.
 */
export function TtsStudio() {
  const { t } = useTranslation();
  const options = useSelectOptions();
  const quota = useTtsQuota();
  const start = useStartTts();
  const [text, setText] = useState("");
  const [voice, setVoice] = useState<StoredVoice | null>(() => readVoiceBank());
  const [mine, setMine] = useState<MyVoice | null>(null);
  const [settings, setSettings] = useState<VoiceSettingsValue>({
    speed: TTS_SPEED.default,
    pitch: TTS_PITCH.default,
    volume: TTS_VOLUME.default,
    format: "mp3",
  });
  const [task, setTask] = useState<TtsTask | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const lastInput = useRef<StartTtsInput | null>(null);
  // Read again once mounted: the page this one replaced may have cleared the voice bank as it left
  // (spec §4, /transaudio), and its clean-up runs after this page's first render.
  useEffect(() => setVoice(readVoiceBank()), []);
  // One of my voices chosen in the library ('mine'): selected once the list of ready ones arrives.
  const [chosenMineId] = useState(() => readMyVoiceChoice());
  const ready = useReadyMyVoices();
  const minePreselected = useRef(false);
  useEffect(() => {
    if (minePreselected.current || chosenMineId === null) return;
    const found = ready.find((v) => v.voiceId === chosenMineId);
    if (found) {
      minePreselected.current = true;
      setMine(found);
    }
  }, [ready, chosenMineId]);

  const limits = options.data?.limits;
  const maxChars = limits?.maxChars ?? TTS_MAX_CHARS;
  const ranges = {
    speed: limits?.speed ?? TTS_SPEED,
    pitch: limits?.pitch ?? TTS_PITCH,
    volume: limits?.volume ?? TTS_VOLUME,
  };

  const send = (input: StartTtsInput) => {
    lastInput.current = input;
    start.mutate(input, {
      onSuccess: (created) => setTask(created),
      // the API client has shown the server's message; keep it beside the button too
      onError: (error) => setProblem(error.message),
    });
  };

  /** What stops this text before it is sent: too short, too long, or more than today has left. */
  const refusal = (count: number): string | null => {
    if (count === 0) return t("tts.empty");
    if (count > maxChars) return t("tts.tooLong", { max: maxChars });
    const q = quota.data;
    if (q && isQuotaExceeded(q)) return quotaExceededMessage(q);
    if (q && count > q.charsLimitToday - q.charsUsedToday) {
      return t("tts.overQuota", { n: count, left: q.charsLimitToday - q.charsUsedToday });
    }
    return null;
  };

  const generate = () => {
    const trimmed = text.trim();
    const why = refusal(ttsCharCount(trimmed));
    setProblem(why);
    if (why) return;
    send(
      mine
        ? { text: trimmed, myVoiceId: mine.voiceId, ...settings }
        : { text: trimmed, promptId: voice?.promptId, ...settings },
    );
  };

  const chooseVoice = (next: StoredVoice | null) => {
    setVoice(next);
    if (next) storeVoiceBank(next);
    else clearVoiceBank();
  };

  // a used-up day is said once, by the quota line
  const exceededText = quota.data && isQuotaExceeded(quota.data) ? quotaExceededMessage(quota.data) : null;
  return (
    <div className="tts-studio-page">
      <div className="tts-studio">
        <div className="tts-studio-main">
          <TextEditor value={text} max={maxChars} onChange={setText} />
          {(mine ?? voice)?.language === "en" && HAN.test(text) && (
            <p className="tts-hint" role="note">
              {t("tts.englishVoiceHint")}
            </p>
          )}
        </div>
        <aside className="tts-studio-side" aria-label={t("tts.settings")}>
          <VoicePicker voice={voice} onChange={chooseVoice} mine={mine} onMine={setMine} />
          <VoiceSettings
            value={settings}
            ranges={ranges}
            formats={limits?.formats ?? TTS_FORMATS}
            onChange={setSettings}
          />
          <TtsQuotaLine quota={quota.data} />
          {problem && problem !== exceededText && (
            <p className="error-text" role="alert" data-testid="tts-problem">
              {problem}
            </p>
          )}
          <Button
            size="lg"
            block
            onClick={generate}
            disabled={start.isPending || exceededText !== null}
            data-testid="generate"
          >
            {start.isPending ? t("tts.starting") : t("tts.generate")}
          </Button>
        </aside>
      </div>
      {task && <TtsResult key={task.taskId} task={task} onRetry={() => lastInput.current && send(lastInput.current)} />}
      <WorksList onDeleted={(taskId) => task?.taskId === taskId && setTask(null)} />
      <SongWorks />
    </div>
  );
}
