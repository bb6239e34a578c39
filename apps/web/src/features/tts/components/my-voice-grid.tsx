import type { MyVoice } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { useMyVoices } from "../api/get-my-voices.ts";
import "./voice-card.css";

/**
 * The library's 'mine' filter: my own voices (made on /myVoice) as cards — a ready one can be
 * previewed and used like a library voice, one in training shows how far it is, a failed one why.
 */
export function MyVoiceGrid({
  action,
  selectedId,
  onChoose,
}: {
  action: "use" | "pick";
  selectedId?: number | null;
  onChoose: (voice: MyVoice) => void;
}) {
  const { t } = useTranslation();
  const voices = useMyVoices();
  if (voices.isPending) return <Spinner />;
  if (voices.isError) return <ErrorState onRetry={() => voices.refetch()} />;
  if (voices.data.list.length === 0) {
    return (
      <EmptyState
        icon="◎"
        text={t("voices.mineEmpty")}
        action={
          <Link className="btn btn-primary btn-sm" to={paths.myVoice}>
            {t("voices.mineCreate")}
          </Link>
        }
      />
    );
  }
  return (
    <ul className="voice-grid" data-testid="my-voice-grid">
      {voices.data.list.map((voice) => {
        const ready = voice.status === FileStatus.Complete;
        const failed = voice.status === FileStatus.Failed;
        return (
          <li
            key={voice.voiceId}
            className={clsx("voice-card", selectedId === voice.voiceId && "selected", !ready && "off")}
            data-testid="my-voice-card"
            data-voice-id={voice.voiceId}
          >
            <div className="voice-card-head">
              <span className="voice-avatar" aria-hidden>
                {[...voice.name][0] ?? "?"}
              </span>
              <div className="voice-card-title">
                <h3 className="voice-card-name">{voice.name}</h3>
                <span className="voice-card-engine">{t(`tts.myVoiceMethod.${voice.method}`)}</span>
              </div>
            </div>
            <p className="voice-sample-text">
              {ready
                ? voice.baseVoiceName
                  ? t("voices.mineBase", { name: voice.baseVoiceName })
                  : t("voices.mineReady")
                : failed
                  ? (voice.errorMsg ?? t("voices.mineFailed"))
                  : t("voices.mineTraining", { progress: voice.progress })}
            </p>
            {ready && voice.previewUrl && (
              // biome-ignore lint/a11y/useMediaCaption: a preview of the user's own voice reading a fixed sentence
              <audio className="my-voice-preview" src={voice.previewUrl} controls preload="none" />
            )}
            <div className="voice-card-actions">
              <Button
                size="sm"
                disabled={!ready || selectedId === voice.voiceId}
                onClick={() => onChoose(voice)}
                aria-label={
                  action === "use"
                    ? t("voices.useNamed", { name: voice.name })
                    : t("voices.pickNamed", { name: voice.name })
                }
              >
                {selectedId === voice.voiceId
                  ? t("voices.chosen")
                  : action === "use"
                    ? t("voices.use")
                    : t("voices.pick")}
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
