import { useCallback, useEffect, useRef, useState } from "react";
import { levelOf, type MicProblem, micProblem, pickRecordingFormat, type RecordingFormat } from "@/lib/recording.ts";

export type RecorderState =
  | { kind: "idle" }
  | { kind: "starting" }
  | { kind: "recording" }
  | { kind: "error"; problem: MicProblem; detail?: string };

/** Why a recording ended: the user kept it, threw it away, or the page went while it ran. */
export type StopReason = "keep" | "discard" | "leave";

/** One recording as it runs. */
export interface MicRecording {
  stream: MediaStream;
  recorder: MediaRecorder;
  /** what was asked of MediaRecorder (null: the browser's own choice) */
  format: RecordingFormat | null;
  startedAt: number;
}

export interface MicRecorderOptions {
  /** getUserMedia's audio constraints */
  audio: MediaTrackConstraints | true;
  /** how often `elapsed` moves (ms) */
  tickMs: number;
  /** the recording stops by itself (kept) this long after it began (ms) */
  maxMs?: number;
  /** the recording began (its recorder already runs) */
  onStart?: (recording: MicRecording) => void;
  /** a chunk of the recording (one a second) and when it came, in ms after the start */
  onChunk: (data: Blob, at: number, recording: MicRecording) => void;
  /** the recorder stopped (the microphone is already let go) */
  onStop: (recording: MicRecording, reason: StopReason) => void;
}

interface Session {
  recording: MicRecording;
  stopMeter: () => void;
  timer: number;
  reason: StopReason;
}

function supportedFormat(): RecordingFormat | null | undefined {
  if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) return undefined;
  return pickRecordingFormat((type) => MediaRecorder.isTypeSupported(type));
}

/**
 * The microphone, for both recorders (the records page's and the voice sample's): MediaRecorder in
 * the browser's own format (lib/recording.ts) handing a chunk a second, a timer, a live level (Web
 * Audio AnalyserNode), and the microphone let go when the recording stops or the page goes. What
 * becomes of the chunks is the caller's (options are read when they are needed: always the latest).
 */
export function useMicRecorder(options: MicRecorderOptions) {
  const [state, setState] = useState<RecorderState>({ kind: "idle" });
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const latest = useRef(options);
  latest.current = options;
  const session = useRef<Session | null>(null);
  const format = useRef(supportedFormat());

  // A plain function reading refs only: safe to call from the unmount cleanup.
  const release = useRef(() => {
    const s = session.current;
    if (!s) return;
    s.stopMeter();
    clearInterval(s.timer);
    for (const track of s.recording.stream.getTracks()) track.stop();
    session.current = null;
    setLevel(0);
    setStream(null);
  }).current;

  const stop = useCallback(
    (reason: StopReason) => {
      const s = session.current;
      if (!s) return;
      s.reason = reason;
      if (s.recording.recorder.state !== "inactive") s.recording.recorder.stop();
      else release();
    },
    [release],
  );

  useEffect(
    () => () => {
      stop("leave");
      release();
    },
    [stop, release],
  );

  const start = useCallback(async () => {
    const fmt = format.current;
    if (fmt === undefined) {
      setState({ kind: "error", problem: "unsupported" });
      return;
    }
    setState({ kind: "starting" });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: latest.current.audio });
    } catch (error) {
      setState({
        kind: "error",
        problem: micProblem(error),
        detail: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    const recorder = new MediaRecorder(stream, fmt ? { mimeType: fmt.mimeType } : undefined);
    const recording: MicRecording = { stream, recorder, format: fmt, startedAt: Date.now() };
    const s: Session = { recording, stopMeter: () => {}, timer: 0, reason: "keep" };
    session.current = s;
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) latest.current.onChunk(e.data, Date.now() - recording.startedAt, recording);
    };
    recorder.onstop = () => {
      release();
      setState({ kind: "idle" });
      latest.current.onStop(recording, s.reason);
    };
    s.stopMeter = meter(stream, setLevel);
    setElapsed(0);
    s.timer = window.setInterval(() => {
      const ms = Date.now() - recording.startedAt;
      setElapsed(ms);
      const max = latest.current.maxMs;
      if (max !== undefined && ms >= max && recorder.state === "recording") recorder.stop();
    }, latest.current.tickMs);
    recorder.start(1000);
    setStream(stream);
    setState({ kind: "recording" });
    latest.current.onStart?.(recording);
  }, [release]);

  return { state, elapsed, level, stream, start, stop };
}

/**
 * The stream's level (0..1) to `onLevel` once a frame, through an AnalyserNode (nothing where the
 * browser has no Web Audio). Answers what stops it.
 */
function meter(stream: MediaStream, onLevel: (level: number) => void): () => void {
  const Ctx =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return () => {};
  const audio = new Ctx();
  const analyser = audio.createAnalyser();
  analyser.fftSize = 1024;
  audio.createMediaStreamSource(stream).connect(analyser);
  const frame = new Uint8Array(analyser.fftSize);
  let next = 0;
  const tick = () => {
    analyser.getByteTimeDomainData(frame);
    onLevel(levelOf(frame));
    next = requestAnimationFrame(tick);
  };
  next = requestAnimationFrame(tick);
  return () => {
    cancelAnimationFrame(next);
    void audio.close().catch(() => {});
  };
}
