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

/** Logout clears every key this app stores (spec §4). */
export function clearAllStorage(): void {
  for (const key of Object.values(StorageKey)) {
    if (key !== StorageKey.lang && key !== StorageKey.exportOptions && key !== StorageKey.transcribeLanguage) {
      removeStorage(key);
    }
  }
}
