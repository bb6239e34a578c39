import type { LiveLanguage, TranscriptionLanguage } from "@yuelu/contracts";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { LevelMeter, RecordingBadge } from "@/components/ui/recorder-parts.tsx";
import { type MicRecording, type StopReason, useMicRecorder } from "@/hooks/use-mic-recorder.ts";
import { formatDuration } from "@/lib/format.ts";
import { extensionForBlobType, recordingFileName } from "@/lib/recording.ts";
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

/** What this page keeps of one recording besides the microphone (hooks/use-mic-recorder.ts). */
interface Session {
  stream: MediaStream;
  /** the chunks, when this browser cannot keep them on disk (no IndexedDB) */
  chunks: Blob[];
  /** the copy on disk (IndexedDB), written chunk by chunk as they arrive */
  kept: StoredRecording | null;
  /** the chunk writes so far, in order */
  writes: Promise<void>;
  /** the chunks written so far */
  seq: number;
  /** its live captions' sessions, named by its upload */
  live: RecordingLiveSessions;
  /** stopped with "stop and transcribe": its transcription is asked for with its upload */
  transcribe: boolean;
}

/** The type and extension a recording really has (the recorder may not honour the request). */
function containerOf(recording: MicRecording) {
  const type = recording.recorder.mimeType || recording.format?.mimeType || "";
  return { type, extension: extensionForBlobType(type, recording.format?.extension ?? "webm") };
}

/**
 * In-browser recording: the microphone with a timer and a live level meter (hooks/use-mic-recorder.ts).
 * Every second's chunk is written to IndexedDB as it arrives (lib/recording-store.ts), so nothing
 * of the audio is held in memory and a reload or crash loses at most a second of it. Stop hands the
 * file (read back from disk) to the same upload queue as a picked file, under its own container's
 * name: .webm (Opus) where the browser records WebM, else .m4a (Safari's MP4); its copy on disk is
 * removed once the server confirms the record. A live WebM has no length in its header; the server
 * measures it from the packets. A page left mid-recording keeps the copy on disk, offered back on
 * /transaudio; a discarded recording's copy goes too.
 *
 * Issue 43: `autoStart` records at once — the page's one "start recording" opens this panel and starts it (as
 * soon as the server has said which live captions it offers, so they never start in a language it lacks),
 * scrolled into view. The captions follow the transcription language (auto or none: the page's language), or
 * are off where the server has none in it; a choice the user makes holds until the transcription language
 * changes. Stop offers "stop and transcribe" (the page's settings, asked for with the upload) beside "stop and
 * upload" and discard.
 */
export function RecorderPanel({
  userId,
  onRecorded,
  onKept,
  onDiscarded,
  language = null,
  transcriptOf,
  autoStart = false,
  canTranscribe = false,
  onClose,
}: {
  userId: string;
  /**
   * the transcription language chosen on the page: live captions start in it (none chosen, or "auto": the
   * page's language) — or off, when the server has no live captions in that language (it says so)
   */
  language?: TranscriptionLanguage | null;
  /** start recording as soon as the panel shows (the page's one click) */
  autoStart?: boolean;
  /** "stop and transcribe" can be offered: the page has settings a transcription can start with */
  canTranscribe?: boolean;
  /** closes the panel (offered while not recording) */
  onClose?: () => void;
  /** the transcript page of an uploaded recording once it is transcribed: it then replaces the live captions */
  transcriptOf?: (fileName: string) => string | undefined;
  /**
   * `keptId`: the copy on disk, to forget once the server confirms the record (null: none kept);
   * `liveSessionId`: its live captions' sessions, for the upload (none: captions were off);
   * `transcribe`: stopped with "stop and transcribe"
   */
  onRecorded: (file: File, keptId: string | null, liveSessionId: string | undefined, transcribe: boolean) => void;
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
  const config = useDictationConfig();
  const liveOffered = config.data?.live;
  const preferred = !language || language === "auto" ? uiLang : language;
  /** the captions' language as chosen (by the user, or pinned when a recording began), for this transcription language */
  const [chosenLive, setChosenLive] = useState<{ language: LiveLanguage | null; for: string | null } | null>(null);
  const session = useRef<Session | null>(null);
  // never a silent default: the preferred language where it is offered, else off (and why) until the user
  // chooses; a choice holds while recording, and afterwards until the transcription language changes
  const liveLanguage =
    chosenLive && (session.current !== null || chosenLive.for === language)
      ? chosenLive.language
      : liveLanguageFor(preferred, liveOffered);
  const setLiveLanguage = (next: LiveLanguage | null) => setChosenLive({ language: next, for: language });
  /** the name the last recording was uploaded under */
  const [recordedName, setRecordedName] = useState<string | null>(null);
  const panel = useRef<HTMLDivElement>(null);

  const begin = (recording: MicRecording) => {
    const s: Session = {
      stream: recording.stream,
      chunks: [],
      kept: null,
      writes: Promise.resolve(),
      seq: 0,
      live: new RecordingLiveSessions(),
      transcribe: false,
    };
    if (!liveLanguage) s.live.none();
    // a stream keeps its language: pinned, whatever the transcription options become meanwhile
    setChosenLive({ language: liveLanguage, for: language });
    session.current = s;
    setRecordedName(null);
    if (canKeepRecordings()) keepOnDisk(s, recording);
  };

  /** The copy on disk: its upload can begin while the recording is made. */
  const keepOnDisk = (s: Session, recording: MicRecording) => {
    const { type, extension } = containerOf(recording);
    const kept: StoredRecording = {
      id: crypto.randomUUID(),
      userId,
      fileName: recordingFileName(t("recorder.fileName"), extension, new Date(recording.startedAt)),
      mimeType: type,
      startedAt: recording.startedAt,
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
  };

  const store = (data: Blob, at: number) => {
    const s = session.current;
    if (!s) return;
    const kept = s.kept;
    if (!kept) {
      s.chunks.push(data);
      return;
    }
    const n = s.seq++;
    s.writes = s.writes.then(() => appendChunk(kept.id, n, data, at)).catch(() => {});
  };

  /** The recording is over: handed to the upload queue, or discarded (with its copy on disk). */
  const finish = async (s: Session, recording: MicRecording, reason: StopReason) => {
    const kept = s.kept;
    if (reason === "discard" && kept) {
      await forgetRecording(kept.id).catch(() => {});
      onDiscarded?.(kept.id);
    }
    if (reason !== "keep") return;
    let file: File;
    if (kept) {
      // its upload (begun while recording) now sends the rest and declares the length
      await finishRecording(kept.id).catch(() => {});
      file = await recordingFile(kept);
    } else {
      const { type, extension } = containerOf(recording);
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
    onRecorded(file, kept?.id ?? null, s.live.joined(), s.transcribe);
  };

  const mic = useMicRecorder({
    audio: true,
    tickMs: 250,
    onStart: begin,
    onChunk: store,
    onStop: (recording, reason) => {
      const s = session.current;
      session.current = null;
      if (s) void s.writes.then(() => finish(s, recording, reason));
    },
  });
  const { state, elapsed, level } = mic;
  const live = useLiveCaptions(mic.stream, liveLanguage, uiLang, (captions, stream) => {
    // only this recording's captions: a previous recording's may still be closing
    if (session.current?.stream === stream) session.current.live.update(captions);
  });

  // the page's one click: recording starts once the server has said which live captions it offers
  const { start } = mic;
  const autoStarted = useRef(false);
  useEffect(() => {
    if (!autoStart || autoStarted.current || config.isPending) return;
    autoStarted.current = true;
    void start();
  }, [autoStart, config.isPending, start]);
  // the panel opens where the user looks: in view, and focused (the button that opened it is gone)
  useEffect(() => {
    if (!autoStart) return;
    panel.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
    panel.current?.focus({ preventScroll: true });
  }, [autoStart]);

  const recording = state.kind === "recording";
  const stop = (transcribe: boolean) => {
    if (session.current) session.current.transcribe = transcribe;
    mic.stop("keep");
  };
  const startLabel =
    state.kind === "error" ? t("recorder.retry") : recordedName ? t("recorder.again") : t("recorder.start");
  return (
    <section className="recorder" data-testid="recorder" ref={panel} tabIndex={-1} aria-label={t("recorder.title")}>
      <div className="recorder-head">
        <strong>{t("recorder.title")}</strong>
        {recording && <RecordingBadge>{t("recorder.recording")}</RecordingBadge>}
        <span className="recorder-time" data-testid="recorder-time">
          {formatDuration(elapsed / 1000)}
        </span>
      </div>
      <LevelMeter level={level} label={t("recorder.level")} />
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
      <div className="recorder-buttons">
        {recording ? (
          <>
            <Button
              onClick={() => stop(true)}
              disabled={!canTranscribe}
              aria-describedby={canTranscribe ? undefined : "recorder-needs-language"}
              data-testid="recorder-stop-transcribe"
            >
              {t("recorder.stopTranscribe")}
            </Button>
            <Button variant="secondary" onClick={() => stop(false)} data-testid="recorder-stop">
              {t("recorder.stop")}
            </Button>
            <Button variant="ghost" onClick={() => mic.stop("discard")} data-testid="recorder-discard">
              {t("recorder.discard")}
            </Button>
          </>
        ) : (
          <>
            <Button
              onClick={() => void start()}
              disabled={state.kind === "starting" || config.isPending}
              data-testid="recorder-start"
            >
              {state.kind === "starting" || (autoStart && !autoStarted.current) ? t("recorder.starting") : startLabel}
            </Button>
            {onClose && (
              <Button variant="ghost" onClick={onClose} data-testid="recorder-close">
                {t("recorder.close")}
              </Button>
            )}
          </>
        )}
      </div>
      {recording && !canTranscribe && (
        <p className="muted recorder-note" id="recorder-needs-language" data-testid="recorder-needs-language">
          {t("recorder.needsLanguage")}
        </p>
      )}
      <LiveCaptions
        state={live}
        language={liveLanguage}
        onLanguage={setLiveLanguage}
        recording={recording}
        transcriptHref={recordedName ? transcriptOf?.(recordedName) : undefined}
        available={liveOffered}
      />
    </section>
  );
}
