/** Local storage keys of spec §3 (temporary code, voice bank, user status, current route, openSign). */
export const StorageKey = {
  tempCode: "yuelu_temp_code",
  voiceBank: "yuelu_voice_bank",
  userStatus: "yuelu_user_status",
  routePath: "yuelu_route_path",
  openSign: "yuelu_open_sign",
  lang: "lang",
  /** the transcript export choices (speakers, times): a preference, kept across logouts */
  exportOptions: "yuelu_export_options",
  /** the last transcription language chosen (zh, en, auto): a preference, kept across logouts */
  transcribeLanguage: "yuelu_transcribe_language",
  /** the day (YYYY-MM-DD, this browser's) the check-in was last offered: at most once a day per browser */
  checkinOffered: "yuelu_checkin_offered",
  /** transcript edits typed on /detail and not yet saved, by record (restored after a reload; cleared on logout) */
  transcriptDrafts: "yuelu_transcript_drafts",
} as const;

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode): behave as empty
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // ignore: nothing to persist to
  }
}

export function removeStorage(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // ignore
  }
}

/** Kept across logouts: preferences, and what this browser was already offered today. */
const KEPT_ON_LOGOUT: readonly string[] = [
  StorageKey.lang,
  StorageKey.exportOptions,
  StorageKey.transcribeLanguage,
  StorageKey.checkinOffered,
];

/** Logout clears every key this app stores (spec §4). */
export function clearAllStorage(): void {
  for (const key of Object.values(StorageKey)) {
    if (!KEPT_ON_LOGOUT.includes(key)) removeStorage(key);
  }
}
