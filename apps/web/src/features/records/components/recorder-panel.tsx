import type { LiveLanguage } from "@yuelu/contracts";
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
import {
  appendChunk,
  beginRecording,
  canKeepRecordings,
  finishRecording,
  forgetRecording,
  recordingFile,
  type StoredRecording,
} from "@/lib/recording-store.ts";
import { useDictationConfig } from "../api/get-dictation-config.ts";
import { liveLanguageFor } from "../lib/languages.ts";
import { RecordingLiveSessions } from "../live/recording-sessions.ts";
import { useLiveCaptions } from "../live/use-live-captions.ts";
import { LiveCaptions } from "./live-captions.tsx";
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
  /** the chunks, when this browser cannot keep them on disk (no IndexedDB) */
  chunks: Blob[];
  /** the copy on disk (IndexedDB), written chunk by chunk as they arrive */
  kept: StoredRecording | null;
  /** the chunk writes so far, in order */
  writes: Promise<void>;
  upload: boolean;
  /** discarded: the copy on disk goes too (a page left mid-recording keeps it, to be offered back) */
  forget: boolean;
  /** its live captions' sessions, named by its upload */
  live: RecordingLiveSessions;
}

function supportedFormat(): RecordingFormat | null | undefined {
  if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) return undefined;
  return pickRecordingFormat((type) => MediaRecorder.isTypeSupported(type));
}

/**
 * In-browser recording: MediaRecorder with a timer and a live level meter (Web Audio AnalyserNode).
 * Every second's chunk is written to IndexedDB as it arrives (lib/recording-store.ts), so nothing
 * of the audio is held in memory and a reload or crash loses at most a second of it. Stop hands the
 * file (read back from disk) to the same upload queue as a picked file, under its own container's
 * name: .webm (Opus) where the browser records WebM, else .m4a (Safari's MP4); its copy on disk is
 * removed once the server confirms the record. A live WebM has no length in its header; the server
 * measures it from the packets.
 */
export function RecorderPanel({
  userId,
  onRecorded,
  onKept,
  onDiscarded,
  language = null,
  transcriptOf,
}: {
  userId: string;
  /**
   * the transcription language chosen on the page: live captions start in it (none chosen, or "auto": the
   * page's language) — or off, when the server has no live captions in that language (it says so)
   */
  language?: LiveLanguage | null;
  /** the transcript page of an uploaded recording once it is transcribed: it then replaces the live captions */
  transcriptOf?: (fileName: string) => string | undefined;
  /**
   * `keptId`: the copy on disk, to forget once the server confirms the record (null: none kept);
   * `liveSessionId`: its live captions' sessions, for the upload (none: captions were off)
   */
  onRecorded: (file: File, keptId: string | null, liveSessionId?: string) => void;
  /**
   * the recording is kept on disk from now on: its upload can start while it is made (issue 31), once
   * `liveSessionId` tells the captions' session (or that there is none)
   */
  onKept?: (kept: StoredRecording, liveSessionId: Promise<string | undefined>) => void;
  /** the user threw the recording away: its upload goes too */
  onDiscarded?: (keptId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.language.startsWith("en") ? "en" : "zh";
  const [state, setState] = useState<State>({ kind: "idle" });
  // live captions (docs/live.md): the microphone stream while recording, in the chosen language
  const [liveStream, setLiveStream] = useState<MediaStream | null>(null);
  const liveOffered = useDictationConfig().data?.live;
  const preferred = !language || language === "auto" ? uiLang : language;
  const [chosenLive, setChosenLive] = useState<{ language: LiveLanguage | null } | null>(null);
  // never a silent default: the preferred language where it is offered, else off (and why) until the user chooses
  const liveLanguage = chosenLive ? chosenLive.language : liveLanguageFor(preferred, liveOffered);
  const setLiveLanguage = (next: LiveLanguage | null) => setChosenLive({ language: next });
  const session = useRef<Session | null>(null);
  const live = useLiveCaptions(liveStream, liveLanguage, uiLang, (captions, stream) => {
    // only this recording's captions: a previous recording's may still be closing
    if (session.current?.stream === stream) session.current.live.update(captions);
  });
  /** the name the last recording was uploaded under */
  const [recordedName, setRecordedName] = useState<string | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
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
    setLiveStream(null);
  }).current;

  useEffect(
    () => () => {
      const s = session.current;
      if (s) {
        // leaving the page mid-recording: the copy on disk stays, offered back on /transaudio
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
    const s: Session = {
      stream,
      recorder,
      audio: null,
      frame: 0,
      timer: 0,
      chunks: [],
      kept: null,
      writes: Promise.resolve(),
      upload: true,
      forget: false,
      live: new RecordingLiveSessions(),
    };
    if (!liveLanguage) s.live.none();
    // a stream keeps its language: pinned, whatever the transcription options become meanwhile
    setChosenLive({ language: liveLanguage });
    session.current = s;
    setLiveStream(stream);
    setRecordedName(null);
    const startedAt = Date.now();
    let seq = 0;
    recorder.ondataavailable = (e) => {
      if (e.data.size === 0) return;
      const kept = s.kept;
      if (!kept) {
        s.chunks.push(e.data);
        return;
      }
      const n = seq++;
      const data = e.data;
      const at = Date.now() - startedAt;
      s.writes = s.writes.then(() => appendChunk(kept.id, n, data, at)).catch(() => {});
    };
    recorder.onstop = () => {
      release();
      setState({ kind: "idle" });
      void s.writes.then(() => finish(s, fmt));
    };
    meter(s);
    setElapsed(0);
    s.timer = window.setInterval(() => setElapsed(Date.now() - startedAt), 250);
    recorder.start(1000);
    setState({ kind: "recording" });
    if (canKeepRecordings()) {
      const type = recorder.mimeType || fmt?.mimeType || "";
      const extension = extensionForBlobType(type, fmt?.extension ?? "webm");
      const kept: StoredRecording = {
        id: crypto.randomUUID(),
        userId,
        fileName: recordingFileName(t("recorder.fileName"), extension, new Date(startedAt)),
        mimeType: type,
        startedAt,
        durationMs: 0,
        bytes: 0,
        chunks: 0,
      };
      s.kept = kept;
      s.writes = beginRecording(kept).then(
        () => onKept?.(kept, s.live.soon()),
        () => {
          // no room on disk (or private mode): the rest stays in memory, as before
          s.kept = null;
        },
      );
    }
  };

  /** The recording is over: handed to the upload queue, or discarded (with its copy on disk). */
  const finish = async (s: Session, fmt: RecordingFormat | null) => {
    const kept = s.kept;
    if (s.forget && kept) {
      await forgetRecording(kept.id).catch(() => {});
      onDiscarded?.(kept.id);
    }
    if (!s.upload) return;
    let file: File;
    if (kept) {
      // its upload (begun while recording) now sends the rest and declares the length
      await finishRecording(kept.id).catch(() => {});
      file = await recordingFile(kept);
    } else {
      const type = s.recorder.mimeType || fmt?.mimeType || "";
      const extension = extensionForBlobType(type, fmt?.extension ?? "webm");
      file = new File(s.chunks, recordingFileName(t("recorder.fileName"), extension), { type });
    }
    if (file.size === 0) {
      if (kept) {
        await forgetRecording(kept.id).catch(() => {});
        onDiscarded?.(kept.id);
      }
      return;
    }
    setRecordedName(file.name);
    onRecorded(file, kept?.id ?? null, s.live.joined());
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
    s.forget = !upload;
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
      {recording && canKeepRecordings() && (
        <p className="muted" data-testid="recorder-saved">
          {t("recorder.savedLocally")}
        </p>
      )}
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
      <LiveCaptions
        state={live}
        language={liveLanguage}
        onLanguage={setLiveLanguage}
        recording={recording}
        transcriptHref={recordedName ? transcriptOf?.(recordedName) : undefined}
        available={liveOffered}
      />
    </div>
  );
}
