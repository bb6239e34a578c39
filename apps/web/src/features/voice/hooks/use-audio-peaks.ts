import { useQuery } from "@tanstack/react-query";
import { peaksOf } from "../lib/peaks.ts";

const DECODE_RATE = 8000;

/**
 * A song's waveform outline (`buckets` peaks), decoded in the browser with Web Audio's
 * decodeAudioData at a low rate (an outline needs no more, and a ten-minute song stays small).
 * Null while loading or where the browser cannot decode it; the player works without it.
 */
export function useAudioPeaks(url: string, buckets: number) {
  return useQuery({
    queryKey: ["voice", "peaks", url, buckets],
    queryFn: async ({ signal }) => {
      const res = await fetch(url, { credentials: "same-origin", signal });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const data = await res.arrayBuffer();
      const Offline =
        window.OfflineAudioContext ??
        (window as unknown as { webkitOfflineAudioContext?: typeof OfflineAudioContext }).webkitOfflineAudioContext;
      if (!Offline) throw new Error("no Web Audio");
      const ctx = new Offline(1, 1, DECODE_RATE);
      const audio = await ctx.decodeAudioData(data);
      const channels = Array.from({ length: audio.numberOfChannels }, (_, i) => audio.getChannelData(i));
      return { peaks: peaksOf(channels, buckets), seconds: audio.duration };
    },
    enabled: url !== "",
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
