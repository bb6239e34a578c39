import type { ReactNode } from "react";
import type { RecorderState } from "@/hooks/use-mic-recorder.ts";
import { Button } from "./button.tsx";
import "./recorder-parts.css";

/** The microphone's live level (0..1) as a bar. */
export function LevelMeter({ level, label }: { level: number; label: string }) {
  const percent = Math.round(level * 100);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <meter> cannot be styled alike in every browser
    <div
      className="level-meter"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <span style={{ width: `${percent}%` }} />
    </div>
  );
}

/** A blinking red dot and its words ('recording'), while the microphone records. */
export function RecordingBadge({ children }: { children: ReactNode }) {
  return (
    <span className="recording-badge">
      <span className="rec-dot" aria-hidden /> {children}
    </span>
  );
}

interface RecorderButtonsProps {
  state: RecorderState;
  labels: { start: ReactNode; stop: ReactNode; discard: ReactNode };
  onStart: () => void;
  /** `keep`: stop and keep the recording; false: throw it away */
  onStop: (keep: boolean) => void;
  startVariant?: "primary" | "secondary";
}

/** Start; while recording, stop (keeping it) or discard. */
export function RecorderButtons({ state, labels, onStart, onStop, startVariant }: RecorderButtonsProps) {
  return (
    <div className="recorder-buttons">
      {state.kind === "recording" ? (
        <>
          <Button onClick={() => onStop(true)} data-testid="recorder-stop">
            {labels.stop}
          </Button>
          <Button variant="ghost" onClick={() => onStop(false)}>
            {labels.discard}
          </Button>
        </>
      ) : (
        <Button
          variant={startVariant}
          onClick={onStart}
          disabled={state.kind === "starting"}
          data-testid="recorder-start"
        >
          {labels.start}
        </Button>
      )}
    </div>
  );
}
