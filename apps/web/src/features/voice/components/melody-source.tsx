import { MELODY_MAX_NOTES } from "@yuelu/contracts/constants";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { formatSize } from "@/lib/format.ts";
import type { Tune } from "../api/types.ts";
import type { Melody } from "../lib/melody.ts";
import { readMidiFile } from "../lib/midi.ts";
import { checkMidiFile, MIDI_ACCEPT } from "../lib/upload-check.ts";

export type MelodyChoice = { kind: "tune"; tune: Tune } | { kind: "midi"; file: File; melody: Melody };

/**
 * Where the melody comes from: a built-in tune, or a MIDI file of the user's, read in the browser
 * to show its notes (the server reads it again).
 */
export function MelodySource({
  tunes,
  choice,
  onChange,
}: {
  tunes: { data?: { list: Tune[] }; isPending: boolean; isError: boolean; refetch: () => unknown };
  choice: MelodyChoice | null;
  onChange: (choice: MelodyChoice | null) => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<"tune" | "midi">("tune");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const id = useId();
  const list = tunes.data?.list ?? [];

  const choose = (next: "tune" | "midi") => {
    setMode(next);
    setRefusal(null);
    if (next === "tune") onChange(list[0] ? { kind: "tune", tune: list[0] } : null);
    else onChange(null);
  };

  const pickMidi = async (file: File | undefined) => {
    setRefusal(null);
    onChange(null);
    if (!file) return;
    const reason = checkMidiFile(file);
    if (reason) return setRefusal(t(`sing.midiRefused.${reason}`, { name: file.name }));
    setReading(true);
    try {
      const melody = await readMidiFile(file);
      if (melody.notes.length === 0) return setRefusal(t("sing.midiNoNotes", { name: file.name }));
      if (melody.notes.length > MELODY_MAX_NOTES)
        return setRefusal(t("sing.midiTooManyNotes", { n: melody.notes.length, max: MELODY_MAX_NOTES }));
      onChange({ kind: "midi", file, melody });
    } catch {
      setRefusal(t("sing.midiUnreadable", { name: file.name }));
    } finally {
      setReading(false);
    }
  };

  return (
    <div className="vk-melody">
      <div className="vk-segments" role="radiogroup" aria-label={t("sing.melodyFrom")}>
        {(["tune", "midi"] as const).map((m) => (
          <label key={m} className="vk-segment" data-checked={mode === m ? "1" : "0"}>
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === m}
              onChange={() => choose(m)}
              data-testid={`melody-${m}`}
            />
            <span>{t(`sing.from.${m}`)}</span>
          </label>
        ))}
      </div>
      {mode === "tune" ? (
        tunes.isPending ? (
          <Spinner />
        ) : tunes.isError ? (
          <ErrorState onRetry={() => tunes.refetch()} />
        ) : (
          <label className="field" htmlFor={`${id}-tune`}>
            <span className="field-label">{t("sing.tune")}</span>
            <select
              id={`${id}-tune`}
              className="input select"
              value={choice?.kind === "tune" ? choice.tune.id : ""}
              onChange={(e) => {
                const tune = list.find((x) => x.id === e.target.value);
                onChange(tune ? { kind: "tune", tune } : null);
              }}
              data-testid="tune-select"
            >
              {list.map((tune) => (
                <option key={tune.id} value={tune.id}>
                  {tune.name}
                </option>
              ))}
            </select>
          </label>
        )
      ) : (
        <div className="vk-file-pick">
          <label className="btn btn-secondary" htmlFor={`${id}-midi`}>
            {t("sing.pickMidi")}
          </label>
          <input
            id={`${id}-midi`}
            className="sr-only"
            type="file"
            accept={MIDI_ACCEPT}
            onChange={(e) => void pickMidi(e.target.files?.[0])}
            data-testid="midi-file"
          />
          <span className="muted">{t("sing.midiHint", { max: MELODY_MAX_NOTES })}</span>
          {reading && <span className="muted">{t("sing.midiReading")}</span>}
          {choice?.kind === "midi" && (
            <p className="vk-file-picked" data-testid="midi-picked">
              <strong>{choice.file.name}</strong>{" "}
              <span className="muted">
                {formatSize(choice.file.size)} · {t("sing.notesCount", { count: choice.melody.notes.length })} ·{" "}
                {choice.melody.bpm} BPM
              </span>
            </p>
          )}
        </div>
      )}
      {refusal && (
        <p className="error-text" role="alert" data-testid="midi-refused">
          {refusal}
        </p>
      )}
    </div>
  );
}
