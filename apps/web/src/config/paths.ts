/** Every route of spec §2 (history mode). Child paths of the layouts are absolute, as in the spec. */
export const paths = {
  landing: "/",
  detail: "/detail",
  home: "/home",
  audio: "/audio",
  audioList: "/audio-list",
  recycleBin: "/recycle-bin",
  /** search over every record (issue 23): ?q=&page= */
  search: "/search",
  transaudio: "/transaudio",
  personalInfo: "/personalInfo",
  /** People: voices the account remembers (docs/people.md) */
  people: "/people",
  helpDocument: "/helpDocument",
  voiceClone: "/voiceClone",
  textToVoice: "/textToVoice",
  myVoice: "/myVoice",
  songConversion: "/songConversion",
  songVoiceConversion: "/song-conversion",
  voiceLibraryLayout: "/voice-library-layout",
  voiceLibrary: "/voice-library",
  /** the spec's second name of text to speech (under the voice library): redirects to /textToVoice */
  textToSpeech: "/text-to-speech",
  order: "/order",
  vip: "/vip",
  tranSatis: "/tranSatis",
  notFound: "/404",
  /** the operator console (docs/admin.md); its areas are paths below it (features/admin/lib/areas.ts) */
  admin: "/admin",
} as const;

/**
 * Spec §2 redirects. /text-to-speech and /textToVoice were two copies of one page (issue 43): the
 * spec's table lists both, and /textToVoice is the one /voiceClone leads to, so the other redirects.
 */
export const redirects: Record<string, string> = {
  [paths.home]: paths.transaudio,
  [paths.audio]: paths.audioList,
  [paths.voiceClone]: paths.textToVoice,
  [paths.voiceLibraryLayout]: paths.voiceLibrary,
  [paths.textToSpeech]: paths.textToVoice,
};

/** Route handle: the i18n key of the document title (`titles.<key>`). */
export interface RouteHandle {
  title: string;
}
