import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { formatDuration } from "@/lib/format.ts";
import {
  extensionForBlobType,
  levelOf,
  type MicProblem,
  micProblem,
  pickRecordingFormat,
  type RecordingFormat,
  recordingFileName,
} from "@/lib/recording.ts";
import "./recorder-panel.css";

type State =
  | { kind: "idle" }
  | { kind: "starting" }
  | { kind: "recording" }
  | { kind: "error"; problem: MicProblem; detail?: string };

interface Session {
  stream: MediaStream;
  recorder: MediaRecorder;
  audio: AudioContext | null;
  frame: number;
  timer: number;
  chunks: Blob[];
  upload: boolean;
}

function supportedFormat(): RecordingFormat | null | undefined {
  if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) return undefined;
  return pickRecordingFormat((type) => MediaRecorder.isTypeSupported(type));
}

/**
 * In-browser recording: MediaRecorder with a timer and a live level meter (Web Audio AnalyserNode).
 * Stop hands the file to the same upload queue as a picked file, under its own container's name:
 * .webm (Opus) where the browser records WebM, else .m4a (Safari's MP4). A live WebM has no length
 * in its header; the server measures it from the packets.
 */
export function RecorderPanel({ onRecorded }: { onRecorded: (file: File) => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: "idle" });
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const session = useRef<Session | null>(null);
  const format = useRef(supportedFormat());

  // A plain function reading refs only: safe to call from the unmount cleanup.
  const release = useRef(() => {
    const s = session.current;
    if (!s) return;
    cancelAnimationFrame(s.frame);
    clearInterval(s.timer);
    for (const track of s.stream.getTracks()) track.stop();
    void s.audio?.close().catch(() => {});
    session.current = null;
    setLevel(0);
  }).current;

  useEffect(
    () => () => {
      const s = session.current;
      if (s) {
        s.upload = false;
        if (s.recorder.state !== "inactive") s.recorder.stop();
      }
      release();
    },
    [release],
  );

  const start = async () => {
    const fmt = format.current;
    if (fmt === undefined) {
      setState({ kind: "error", problem: "unsupported" });
      return;
    }
    setState({ kind: "starting" });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      const problem = micProblem(error);
      setState({ kind: "error", problem, detail: error instanceof Error ? error.message : String(error) });
      return;
    }
    const recorder = new MediaRecorder(stream, fmt ? { mimeType: fmt.mimeType } : undefined);
    const s: Session = { stream, recorder, audio: null, frame: 0, timer: 0, chunks: [], upload: true };
    session.current = s;
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) s.chunks.push(e.data);
    };
    recorder.onstop = () => {
      const type = recorder.mimeType || fmt?.mimeType || "";
      const blob = new Blob(s.chunks, { type });
      release();
      setState({ kind: "idle" });
      if (!s.upload || blob.size === 0) return;
      const extension = extensionForBlobType(type, fmt?.extension ?? "webm");
      onRecorded(new File([blob], recordingFileName(t("recorder.fileName"), extension), { type }));
    };
    meter(s);
    const startedAt = Date.now();
    setElapsed(0);
    s.timer = window.setInterval(() => setElapsed(Date.now() - startedAt), 250);
    recorder.start(1000);
    setState({ kind: "recording" });
  };

  const meter = (s: Session) => {
    const Ctx =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const audio = new Ctx();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 1024;
    audio.createMediaStreamSource(s.stream).connect(analyser);
    s.audio = audio;
    const frame = new Uint8Array(analyser.fftSize);
    const tick = () => {
      analyser.getByteTimeDomainData(frame);
      setLevel(levelOf(frame));
      s.frame = requestAnimationFrame(tick);
    };
    s.frame = requestAnimationFrame(tick);
  };

  const stop = (upload: boolean) => {
    const s = session.current;
    if (!s) return;
    s.upload = upload;
    if (s.recorder.state !== "inactive") s.recorder.stop();
    else release();
  };

  const recording = state.kind === "recording";
  return (
    <div className="recorder" data-testid="recorder">
      <div className="recorder-head">
        <strong>{t("recorder.title")}</strong>
        {recording && (
          <span className="recorder-live">
            <span className="rec-dot" aria-hidden /> {t("recorder.recording")}
          </span>
        )}
        <span className="recorder-time" data-testid="recorder-time">
          {formatDuration(elapsed / 1000)}
        </span>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: <meter> cannot be styled alike in every browser */}
      <div
        className="level-meter"
        role="meter"
        aria-label={t("recorder.level")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(level * 100)}
      >
        <span style={{ width: `${Math.round(level * 100)}%` }} />
      </div>
      {state.kind === "error" && (
        <p className="error-text" role="alert" data-testid="recorder-error">
          {state.problem === "failed"
            ? t("recorder.failed", { message: state.detail ?? "" })
            : t(`recorder.${state.problem}`)}
        </p>
      )}
      <div className="recorder-actions">
        {recording ? (
          <>
            <Button onClick={() => stop(true)} data-testid="recorder-stop">
              {t("recorder.stop")}
            </Button>
            <Button variant="ghost" onClick={() => stop(false)}>
              {t("recorder.discard")}
            </Button>
          </>
        ) : (
          <Button onClick={start} disabled={state.kind === "starting"} data-testid="recorder-start">
            {t("recorder.start")}
          </Button>
        )}
      </div>
    </div>
  );
}
