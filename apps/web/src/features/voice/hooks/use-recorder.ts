import { MY_VOICE_MAX_SECONDS } from "@yuelu/contracts/constants";
import { useCallback, useEffect, useRef, useState } from "react";
import { type MicRecording, type StopReason, useMicRecorder } from "@/hooks/use-mic-recorder.ts";
import { extensionForBlobType } from "@/lib/recording.ts";

export interface Take {
  file: File;
  url: string;
  seconds: number;
}

/** Processing off: the sample is analysed as the voice sounds, not as the browser would clean it up. */
const RAW_AUDIO = { echoCancellation: false, noiseSuppression: false, autoGainControl: false };

/**
 * The microphone for a voice sample (hooks/use-mic-recorder.ts), kept in memory and stopped at the
 * longest sample allowed. A take's length is the recording's own time (a live WebM has none in its
 * header); a kept take is a file named `fileName` with its container's extension.
 */
export function useRecorder(fileName: string) {
  const [take, setTake] = useState<Take | null>(null);
  const chunks = useRef<Blob[]>([]);
  const takeUrl = useRef<string | null>(null);

  const setTakeUrl = useRef((url: string | null) => {
    if (takeUrl.current) URL.revokeObjectURL(takeUrl.current);
    takeUrl.current = url;
  }).current;
  useEffect(() => () => setTakeUrl(null), [setTakeUrl]);

  const keepTake = (recording: MicRecording, reason: StopReason) => {
    const seconds = (Date.now() - recording.startedAt) / 1000;
    const type = recording.recorder.mimeType || recording.format?.mimeType || "";
    const blob = new Blob(chunks.current, { type });
    chunks.current = [];
    if (reason !== "keep" || blob.size === 0) return;
    const extension = extensionForBlobType(type, recording.format?.extension ?? "webm");
    const file = new File([blob], `${fileName}.${extension}`, { type });
    const url = URL.createObjectURL(file);
    setTakeUrl(url);
    setTake({ file, url, seconds });
  };

  const mic = useMicRecorder({
    audio: RAW_AUDIO,
    tickMs: 200,
    maxMs: MY_VOICE_MAX_SECONDS * 1000,
    onStart: () => {
      chunks.current = [];
      setTakeUrl(null);
      setTake(null);
    },
    onChunk: (data) => chunks.current.push(data),
    onStop: keepTake,
  });

  const { stop: stopMic } = mic;
  const stop = useCallback((keep = true) => stopMic(keep ? "keep" : "discard"), [stopMic]);

  return { state: mic.state, elapsed: mic.elapsed, level: mic.level, take, start: mic.start, stop };
}
