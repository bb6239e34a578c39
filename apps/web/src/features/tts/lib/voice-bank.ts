import type { VoiceItem } from "@yuelu/contracts";
import type { Lang } from "@yuelu/contracts/constants";
import { readStorage, removeStorage, StorageKey, writeStorage } from "@/lib/storage.ts";

/**
 * The voice bank (spec §3's local-storage key): the library voice chosen with 'use this voice',
 * which the text-to-speech page preselects. One-time data: leaving /transaudio and unloading the
 * page remove it (spec §4).
 */
export interface StoredVoice {
  promptId: number;
  nameZh: string;
  nameEn: string;
  language: string;
  labels?: VoiceItem["labels"];
}

export function storeVoiceBank(voice: VoiceItem | StoredVoice) {
  const { promptId, nameZh, nameEn, language, labels } = voice;
  writeStorage(StorageKey.voiceBank, JSON.stringify({ promptId, nameZh, nameEn, language, labels }));
}

export function readVoiceBank(): StoredVoice | null {
  const raw = readStorage(StorageKey.voiceBank);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredVoice>;
    if (!Number.isInteger(value.promptId) || (value.promptId ?? 0) <= 0) return null;
    return {
      promptId: value.promptId as number,
      nameZh: String(value.nameZh ?? ""),
      nameEn: String(value.nameEn ?? ""),
      language: String(value.language ?? ""),
      labels: value.labels,
    };
  } catch {
    return null; // written by something else: no voice
  }
}

/**
 * 'Use this voice' on one of my voices (the library's 'mine' filter): the same one-time key holds
 * its id instead of a library voice's, so the text-to-speech page preselects it.
 */
export function storeMyVoiceChoice(voiceId: number) {
  writeStorage(StorageKey.voiceBank, JSON.stringify({ myVoiceId: voiceId }));
}

export function readMyVoiceChoice(): number | null {
  const raw = readStorage(StorageKey.voiceBank);
  if (!raw) return null;
  try {
    const id = (JSON.parse(raw) as { myVoiceId?: unknown }).myVoiceId;
    return Number.isInteger(id) && (id as number) > 0 ? (id as number) : null;
  } catch {
    return null;
  }
}

export function clearVoiceBank() {
  removeStorage(StorageKey.voiceBank);
}

export function voiceName(voice: { nameZh: string; nameEn: string }, lang: Lang): string {
  return (lang === "en" ? voice.nameEn || voice.nameZh : voice.nameZh || voice.nameEn) || "";
}
