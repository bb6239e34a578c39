import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "@/lib/api-client.ts";
import { claimAudio, releaseAudio } from "@/lib/exclusive-audio.ts";
import { tryListen } from "../api/try-listen.ts";

export type SampleState = { promptId: number; phase: "loading" | "playing" } | null;

/**
 * Plays the library's try_listen samples through one audio element, so only one plays at a time:
 * starting a sample stops the one before; pressing a playing sample's button stops it.
 */
export function useSamplePlayer() {
  const { t } = useTranslation();
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const urls = useRef(new Map<number, string>());
  const request = useRef<AbortController | null>(null);
  const [current, setCurrent] = useState<SampleState>(null);
  const [failure, setFailure] = useState<{ promptId: number; message: string } | null>(null);

  const stop = useCallback(() => {
    request.current?.abort();
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute("src");
      audio.load();
    }
    setCurrent(null);
  }, []);

  const play = useCallback(
    async (voice: { promptId: number; audioUrl: string }) => {
      stop();
      setFailure(null);
      const audio = audioRef.current;
      if (!audio) return;
      const { promptId } = voice;
      setCurrent({ promptId, phase: "loading" });
      const controller = new AbortController();
      request.current = controller;
      try {
        let url = urls.current.get(promptId) || voice.audioUrl;
        if (!url) {
          url = (await tryListen(promptId, controller.signal)).audioUrl;
          if (!url) throw new Error(t("voices.sampleNotReady"));
          urls.current.set(promptId, url);
        }
        if (controller.signal.aborted) return;
        audio.src = url;
        claimAudio(audio);
        await audio.play();
        if (!controller.signal.aborted) setCurrent({ promptId, phase: "playing" });
      } catch (error) {
        if (controller.signal.aborted) return;
        setCurrent(null);
        // The API client has already shown a failed call; a media failure is shown on the card.
        if (!(error instanceof ApiError)) {
          setFailure({
            promptId,
            message: error instanceof Error && error.message ? error.message : t("voices.sampleFailed"),
          });
        }
      }
    },
    [stop, t],
  );

  const toggle = useCallback(
    (voice: { promptId: number; audioUrl: string }) => {
      if (current?.promptId === voice.promptId) stop();
      else void play(voice);
    },
    [current, play, stop],
  );

  // The element reports the end (or a failure) of what it plays.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const ended = () => setCurrent(null);
    const paused = () => {
      // paused by another player (one at a time): this sample no longer plays
      if (!audio.ended) setCurrent((c) => (c?.phase === "playing" ? null : c));
    };
    audio.addEventListener("ended", ended);
    audio.addEventListener("pause", paused);
    return () => {
      audio.removeEventListener("ended", ended);
      audio.removeEventListener("pause", paused);
      audio.pause();
      releaseAudio(audio);
    };
  }, []);

  return { audioRef, current, failure, toggle, stop };
}
