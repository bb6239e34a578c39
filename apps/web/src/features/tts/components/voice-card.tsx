import type { VoiceItem } from "@yuelu/contracts";
import { clsx } from "clsx";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import "./voice-card.css";

/** One voice of the library: its name and traits, a sample to play or stop, and 'use this voice'. */
export function VoiceCard({
  voice,
  loading,
  selected,
  failure,
  action,
  onToggle,
  onUse,
}: {
  voice: VoiceItem;
  /** its sample is being fetched */
  loading: boolean;
  /** the voice the editor has now (picker) */
  selected?: boolean;
  failure?: string;
  /** 'use this voice' (the library page) or 'choose' (the editor's picker) */
  action: "use" | "pick";
  onToggle: () => void;
  onUse: () => void;
}) {
  const { t } = useTranslation();
  const tags = [voice.labels.language, voice.labels.gender, voice.labels.ageGroup, voice.labels.style];
  const playLabel = voice.playing
    ? t("voices.stopSample", { name: voice.name })
    : t("voices.playSample", { name: voice.name });
  return (
    <li
      className={clsx("voice-card", voice.playing && "playing", selected && "selected", !voice.available && "off")}
      data-testid="voice-card"
      data-prompt-id={voice.promptId}
      data-language={voice.language}
      data-playing={voice.playing ? "1" : "0"}
    >
      <div className="voice-card-head">
        <span className={clsx("voice-avatar", `voice-avatar-${voice.gender}`)} aria-hidden>
          {[...voice.name][0] ?? "?"}
        </span>
        <div className="voice-card-title">
          <h3 className="voice-card-name">{voice.name}</h3>
          <span className="voice-card-engine">{voice.labels.engine}</span>
        </div>
      </div>
      <ul className="chips voice-tags" aria-label={t("voices.traits")}>
        {voice.isDefault && <li className="chip voice-default">{t("voices.default")}</li>}
        {tags.map((tag) => (
          <li key={tag} className="chip">
            {tag}
          </li>
        ))}
      </ul>
      <p className="voice-sample-text" title={voice.sampleText}>
        {voice.sampleText}
      </p>
      {!voice.available && (
        <p className="voice-missing" role="note">
          {voice.missing || t("voices.unavailable")}
        </p>
      )}
      {failure && (
        <p className="error-text" role="alert">
          {failure}
        </p>
      )}
      <div className="voice-card-actions">
        <Button
          variant="secondary"
          size="sm"
          className="voice-play"
          aria-label={playLabel}
          title={playLabel}
          aria-pressed={voice.playing}
          disabled={!voice.available}
          onClick={onToggle}
          data-testid="voice-play"
        >
          <span aria-hidden>{loading ? "…" : voice.playing ? "■" : "▶"}</span>
          {voice.playing ? t("voices.stop") : t("voices.listen")}
        </Button>
        <Button
          size="sm"
          disabled={!voice.available}
          onClick={onUse}
          aria-label={t(selected ? "voices.chosenNamed" : `voices.${action}Named`, { name: voice.name })}
          data-testid="voice-use"
        >
          {selected ? t("voices.chosen") : t(`voices.${action}`)}
        </Button>
      </div>
    </li>
  );
}
