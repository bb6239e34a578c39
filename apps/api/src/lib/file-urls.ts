/**
 * Every user-facing address of a stored file, built from the route that serves it: a route registers
 * its path from FILE_ROUTES and the views hand out fileUrl() of the same constant, so the two cannot
 * drift apart (and presigned URLs, when files move to S3, have one place to start: docs/SEATS).
 */

/** Where the /voice_yuelu API is mounted (ARCHITECTURE §2). */
export const API_PREFIX = "/voice_yuelu";

/** The routes that serve stored files, as their modules register them (relative to API_PREFIX). */
export const FILE_ROUTES = {
  /** a record's original file (records/routes.ts) */
  recordAudio: "/api/v3/audio/download",
  /** a library voice's sample (tts/routes.ts; public) */
  voiceSample: "/new_tts/labs/sample",
  /** a text-to-speech work (tts/routes.ts) */
  ttsWork: "/tts/download",
  /** a voice of mine: its preview and the sample it was made from (voice/routes.ts) */
  myVoicePreview: "/voice/my_voice/preview",
  myVoiceSample: "/voice/my_voice/sample",
  /** a sung or converted song, or a part of it (voice/routes.ts) */
  voiceWork: "/voice/works/file",
} as const;

export type FileRoute = (typeof FILE_ROUTES)[keyof typeof FILE_ROUTES];

type QueryValue = string | number | boolean | undefined;

/**
 * The address of `route` with `query` in the order given: `true` is written `1` (the routes read
 * flags so), `false` and undefined are left out.
 */
export function fileUrl(route: FileRoute, query: Record<string, QueryValue>): string {
  const pairs = Object.entries(query).flatMap(([name, value]) => {
    if (value === undefined || value === false) return [];
    return [`${name}=${encodeURIComponent(value === true ? "1" : String(value))}`];
  });
  return `${API_PREFIX}${route}${pairs.length ? `?${pairs.join("&")}` : ""}`;
}

/** A record's file to play (inline). */
export const recordAudioUrl = (fileId: number) => fileUrl(FILE_ROUTES.recordAudio, { fileId, inline: true });

/** A library voice's sample; `version` changes with the sample, so the address can be cached for good. */
export const voiceSampleUrl = (promptId: number, version: string) =>
  fileUrl(FILE_ROUTES.voiceSample, { promptId, v: version });

/** A text-to-speech work: to play (inline) or to download (an attachment). */
export const ttsWorkUrl = (taskId: number, inline: boolean) => fileUrl(FILE_ROUTES.ttsWork, { taskId, inline });

/** A voice of mine's preview or sample, to play; `version` changes whenever the voice does. */
export const myVoiceFileUrl = (which: "preview" | "sample", voiceId: number, version: string) =>
  fileUrl(which === "preview" ? FILE_ROUTES.myVoicePreview : FILE_ROUTES.myVoiceSample, {
    voiceId,
    inline: true,
    v: version,
  });

/** A part of a sung or converted song: to play (inline) or to download. */
export const voiceWorkUrl = (workId: number, part: "result" | "original" | "vocals", inline: boolean) =>
  fileUrl(FILE_ROUTES.voiceWork, { workId, part, inline });
