import { MY_VOICE_MAX_SECONDS } from "@yuelu/contracts/constants";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  extensionForBlobType,
  levelOf,
  type MicProblem,
  micProblem,
  pickRecordingFormat,
  type RecordingFormat,
} from "@/lib/recording.ts";

export interface Take {
  file: File;
  url: string;
  seconds: number;
}

export type RecorderState =
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
  keep: boolean;
  startedAt: number;
}

function supportedFormat(): RecordingFormat | null | undefined {
  if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) return undefined;
  return pickRecordingFormat((type) => MediaRecorder.isTypeSupported(type));
}

/**
 * The microphone for a voice sample: MediaRecorder (WebM/Opus where the browser has it), a timer, a
 * live level (Web Audio AnalyserNode), and a stop at the longest sample allowed. A take's length is
 * the recording's own time (a live WebM has none in its header).
 */
export function useRecorder(fileName: string) {
  const [state, setState] = useState<RecorderState>({ kind: "idle" });
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [take, setTake] = useState<Take | null>(null);
  const session = useRef<Session | null>(null);
  const format = useRef(supportedFormat());
  const takeUrl = useRef<string | null>(null);

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

  const setTakeUrl = useRef((url: string | null) => {
    if (takeUrl.current) URL.revokeObjectURL(takeUrl.current);
    takeUrl.current = url;
  }).current;

  useEffect(
    () => () => {
      const s = session.current;
      if (s) {
        s.keep = false;
        if (s.recorder.state !== "inactive") s.recorder.stop();
      }
      release();
      if (takeUrl.current) URL.revokeObjectURL(takeUrl.current);
    },
    [release],
  );

  const stop = useCallback(
    (keep = true) => {
      const s = session.current;
      if (!s) return;
      s.keep = keep;
      if (s.recorder.state !== "inactive") s.recorder.stop();
      else release();
    },
    [release],
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
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
    } catch (error) {
      setState({ kind: "error", problem: micProblem(error), detail: error instanceof Error ? error.message : "" });
      return;
    }
    const recorder = new MediaRecorder(stream, fmt ? { mimeType: fmt.mimeType } : undefined);
    const s: Session = {
      stream,
      recorder,
      audio: null,
      frame: 0,
      timer: 0,
      chunks: [],
      keep: true,
      startedAt: Date.now(),
    };
    session.current = s;
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) s.chunks.push(e.data);
    };
    recorder.onstop = () => {
      const seconds = (Date.now() - s.startedAt) / 1000;
      const type = recorder.mimeType || fmt?.mimeType || "";
      const blob = new Blob(s.chunks, { type });
      release();
      setState({ kind: "idle" });
      if (!s.keep || blob.size === 0) return;
      const extension = extensionForBlobType(type, fmt?.extension ?? "webm");
      const file = new File([blob], `${fileName}.${extension}`, { type });
      const url = URL.createObjectURL(file);
      setTakeUrl(url);
      setTake({ file, url, seconds });
    };
    meter(s, setLevel);
    setElapsed(0);
    s.timer = window.setInterval(() => {
      const ms = Date.now() - s.startedAt;
      setElapsed(ms);
      if (ms >= MY_VOICE_MAX_SECONDS * 1000 && s.recorder.state === "recording") s.recorder.stop();
    }, 200);
    recorder.start(1000);
    setTakeUrl(null);
    setTake(null);
    setState({ kind: "recording" });
  }, [fileName, release, setTakeUrl]);

  const discardTake = useCallback(() => {
    setTakeUrl(null);
    setTake(null);
    setElapsed(0);
  }, [setTakeUrl]);

  return { state, elapsed, level, take, start, stop, discardTake };
}

function meter(s: Session, onLevel: (level: number) => void) {
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
    onLevel(levelOf(frame));
    s.frame = requestAnimationFrame(tick);
  };
  s.frame = requestAnimationFrame(tick);
}
