import type { LiveLanguage } from "@yuelu/contracts";
import { LIVE_SAMPLE_RATE } from "@yuelu/contracts/constants";
import { useEffect, useRef, useState } from "react";
import { Downsampler, LiveCaptionClient, type LiveCaptionState } from "./live-client.ts";

/**
 * The worklet module, emitted by Vite as a file of its own (never inlined as a data: URL, which the
 * CSP's script-src 'self' would refuse).
 */
import WORKLET_URL from "./pcm-worklet.js?url&no-inline";

/**
 * Live captions for a microphone stream while it records: the stream's audio, at 16 kHz mono, goes
 * to LiveCaptionClient. It is taken by an AudioWorklet (pcm-worklet.js, on the audio thread); where
 * worklets are missing (an insecure origin, an old browser) by a ScriptProcessorNode. When `stream`
 * goes (the recording stopped) the client sends the rest and waits for the last captions; the text
 * stays until the next recording. `language` null: captions off.
 */
export function useLiveCaptions(
  stream: MediaStream | null,
  language: LiveLanguage | null,
  lang: "zh" | "en",
  /** every state of the captions of `stream` (the recorder keeps the recording's session ids) */
  onState?: (state: LiveCaptionState, stream: MediaStream) => void,
): LiveCaptionState | null {
  const [state, setState] = useState<LiveCaptionState | null>(null);
  const settings = useRef({ language, lang, onState });
  settings.current = { language, lang, onState };

  useEffect(() => {
    const { language: chosen, lang: uiLang } = settings.current;
    if (!stream || !chosen) return;
    const Ctx =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx || typeof WebSocket === "undefined") return;
    setState(null);
    const onChange = (next: LiveCaptionState) => {
      setState(next);
      settings.current.onState?.(next, stream);
    };
    const client = new LiveCaptionClient({ language: chosen, lang: uiLang, onChange });
    // at 16 kHz the browser resamples the microphone itself (a proper low-pass); where a context of
    // another rate than the device's cannot take the stream (Firefox), the device's rate and our own
    // downsampler
    let audio = new Ctx({ sampleRate: LIVE_SAMPLE_RATE });
    let source: MediaStreamAudioSourceNode;
    try {
      source = audio.createMediaStreamSource(stream);
    } catch {
      void audio.close().catch(() => {});
      audio = new Ctx();
      source = audio.createMediaStreamSource(stream);
    }
    const context = audio;
    const down = new Downsampler(context.sampleRate);
    const take = (samples: Float32Array) => client.push(down.push(samples));
    let tap: AudioNode | undefined;
    let cancelled = false;

    const scriptProcessor = () => {
      const processor = context.createScriptProcessor(4096, 1, 1);
      processor.onaudioprocess = (event) => take(event.inputBuffer.getChannelData(0));
      return processor;
    };
    const connect = (node: AudioNode) => {
      tap = node;
      source.connect(node);
      // a tap runs only while connected to the output; it writes nothing, so this is silent
      node.connect(context.destination);
    };
    if (context.audioWorklet) {
      context.audioWorklet
        .addModule(WORKLET_URL)
        .then(() => {
          if (cancelled) return;
          const node = new AudioWorkletNode(context, "yuelu-pcm-tap");
          node.port.onmessage = (event: MessageEvent<Float32Array>) => take(event.data);
          connect(node);
        })
        .catch(() => {
          if (!cancelled) connect(scriptProcessor());
        });
    } else {
      connect(scriptProcessor());
    }
    return () => {
      cancelled = true;
      if (tap instanceof ScriptProcessorNode) tap.onaudioprocess = null;
      if (tap instanceof AudioWorkletNode) tap.port.onmessage = null;
      source.disconnect();
      tap?.disconnect();
      void context.close().catch(() => {});
      void client.stop();
    };
  }, [stream]);

  return state;
}
