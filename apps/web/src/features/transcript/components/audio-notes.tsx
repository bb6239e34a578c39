import type { AudioNotes } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";

/** Raised by less than this, the level change is not worth a word. */
const SAY_GAIN_FROM_DB = 10;

/**
 * What the speech front end did to the recording before recognition (issue 29), as short notes beside
 * the segment count: noise reduced (and what noise), reverberation reduced, telephone-band audio, a large volume change. The
 * estimated signal-to-noise ratio is in the tooltip. Nothing when the recording was left as it was.
 */
export function AudioNotesLine({ audio }: { audio: AudioNotes | null }) {
  const { t } = useTranslation();
  if (!audio) return null;
  const noiseName = {
    white: t("transcript.noiseWhite"),
    pink: t("transcript.noisePink"),
    brown: t("transcript.noiseBrown"),
  };
  const notes: string[] = [];
  if (audio.denoised) {
    notes.push(
      audio.noise
        ? t("transcript.audioDenoisedKind", { noise: noiseName[audio.noise] })
        : t("transcript.audioDenoised"),
    );
  }
  if (audio.dereverberated) notes.push(t("transcript.audioDereverberated"));
  if (audio.narrowBand) notes.push(t("transcript.audioNarrowBand"));
  if (audio.gainDb >= SAY_GAIN_FROM_DB) notes.push(t("transcript.audioLouder", { db: Math.round(audio.gainDb) }));
  if (notes.length === 0) return null;
  return (
    <span
      className="audio-notes"
      data-testid="audio-notes"
      title={
        audio.dereverberated && audio.rt60Ms
          ? `${t("transcript.audioSnr", { db: Math.round(audio.snrDb) })} · ${t("transcript.audioRt60", { seconds: Number((audio.rt60Ms / 1000).toFixed(2)) })}`
          : t("transcript.audioSnr", { db: Math.round(audio.snrDb) })
      }
    >
      <span className="sr-only">{t("transcript.audioNotesLabel")}: </span>
      {notes.join(" · ")}
    </span>
  );
}
