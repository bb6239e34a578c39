import { MIDI_MAX_BYTES, SONG_MAX_BYTES, UPLOAD_EXTENSIONS } from "@yuelu/contracts/constants";
import { extensionOf } from "@/utils/file-name.ts";

/** The file input's accept attribute for a song or a voice sample: the records upload formats. */
export const AUDIO_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(",");
export const MIDI_ACCEPT = ".mid,.midi,audio/midi,audio/x-midi";

export type FileRefusal = "badExtension" | "tooLarge" | "emptyFile";

/** Why a song or a sample may not be sent, judging by its name and size (the server checks the content). */
export function checkAudioFile(file: { name: string; size: number }): FileRefusal | null {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return "badExtension";
  if (file.size === 0) return "emptyFile";
  if (file.size > SONG_MAX_BYTES) return "tooLarge";
  return null;
}

export function checkMidiFile(file: { name: string; size: number }): FileRefusal | null {
  if (!["mid", "midi"].includes(extensionOf(file.name))) return "badExtension";
  if (file.size === 0) return "emptyFile";
  if (file.size > MIDI_MAX_BYTES) return "tooLarge";
  return null;
}
