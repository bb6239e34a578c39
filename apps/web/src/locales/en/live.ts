/** Live captions while recording (features/records/live). */
export const live = {
  live: {
    title: "Live captions",
    language: "Caption language",
    lang_auto: "Auto",
    lang_zh: "Chinese",
    lang_en: "English (for English speech only)",
    lang_zhUnavailable: "Chinese (not available yet)",
    off: "Off",
    listening: "Listening…",
    connecting: "Connecting live captions…",
    reconnecting: "Connection lost, reconnecting (no audio is lost)…",
    zhNeedsModel: "Live captions for Chinese are not available yet. Recording and transcription work as usual.",
    unavailable: "{{message}}. Recording and transcription work as usual.",
    refused: "Live captions are off: {{message}}",
    stopped: "Live captions stopped: {{message}}",
    stoppedRecording: "Live captions stopped: {{message}} Recording goes on and is uploaded as usual when you stop.",
    preview: "This is a live preview; once the recording is transcribed, the full transcript replaces it.",
    empty: "While you record, what you say appears here.",
    replaced: "The recording is transcribed: its full transcript replaces the live captions.",
    openTranscript: "Open the transcript",
  },
};
