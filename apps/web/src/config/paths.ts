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
  helpDocument: "/helpDocument",
  voiceClone: "/voiceClone",
  textToVoice: "/textToVoice",
  myVoice: "/myVoice",
  songConversion: "/songConversion",
  songVoiceConversion: "/song-conversion",
  voiceLibraryLayout: "/voice-library-layout",
  voiceLibrary: "/voice-library",
  textToSpeech: "/text-to-speech",
  order: "/order",
  vip: "/vip",
  tranSatis: "/tranSatis",
  notFound: "/404",
  /** the operator console (docs/admin.md); its areas are paths below it (features/admin/lib/areas.ts) */
  admin: "/admin",
} as const;

/** Spec §2 redirects. */
export const redirects: Record<string, string> = {
  [paths.home]: paths.transaudio,
  [paths.audio]: paths.audioList,
  [paths.voiceClone]: paths.textToVoice,
  [paths.voiceLibraryLayout]: paths.voiceLibrary,
};

/** Route handle: the i18n key of the document title (`titles.<key>`). */
export interface RouteHandle {
  title: string;
}
