import type { VoiceItem } from "@yuelu/contracts";
import type { MyVoice, Tune, VoiceCapabilities, VoiceQuota, VoiceWork } from "../api/types.ts";

/** Test data shaped like the API's answers (contracts' types), for this feature's component tests. */
export function myVoice(voiceId: number, over: Partial<MyVoice> = {}): MyVoice {
  return {
    voiceId,
    name: `声音${voiceId}`,
    language: "zh",
    method: "match",
    status: 2,
    progress: 100,
    sampleSeconds: 24.5,
    baseVoiceName: "晓晓",
    profile: {
      medianHz: 212.4,
      lowHz: 168.2,
      highHz: 281.9,
      formantHz: 1540,
      syllablesPerSecond: 4.26,
      speechSeconds: 21.3,
    },
    previewUrl: `/voice_yuelu/voice/my_voice/preview?voiceId=${voiceId}`,
    sampleUrl: `/voice_yuelu/voice/my_voice/sample?voiceId=${voiceId}`,
    createTime: 1_735_787_045,
    updateTime: 1_735_787_045,
    ...over,
  };
}

export function voiceWork(workId: number, kind: "sing" | "convert", over: Partial<VoiceWork> = {}): VoiceWork {
  const base = `/voice_yuelu/voice/works/file?workId=${workId}`;
  return {
    workId,
    kind,
    title: `作品${workId}`,
    voiceName: "晓晓",
    status: 2,
    progress: 100,
    durationMs: 12_000,
    notes: [],
    bpm: 100,
    lyrics: kind === "sing" ? "一闪一闪" : "",
    keyShift: 0,
    tempo: 1,
    semitones: 0,
    audioUrl: `${base}&part=result&inline=1`,
    downloadUrl: `${base}&part=result`,
    originalUrl: kind === "convert" ? `${base}&part=original&inline=1` : "",
    createTime: 1_735_787_045,
    updateTime: 1_735_787_045,
    ...over,
  };
}

/** "Twinkle twinkle": its first two phrases, 14 notes. */
export function tune(id = "twinkle", over: Partial<Tune> = {}): Tune {
  const pitches = [60, 60, 67, 67, 69, 69, 67, 65, 65, 64, 64, 62, 62, 60];
  let at = 0;
  const melody = pitches.map((midi, i) => {
    const duration = i === 6 || i === 13 ? 2 : 1;
    const note = { midi, start: at, duration };
    at += duration;
    return note;
  });
  return { id, name: "小星星", bpm: 100, melody, lyrics: "一闪一闪亮晶晶，满天都是小星星", ...over };
}

export const capabilities = (over: Partial<VoiceCapabilities> = {}): VoiceCapabilities => ({
  myVoiceMethod: "match",
  separator: "centre",
  converter: "dsp",
  accompaniment: "soundfont",
  available: true,
  ...over,
});

export const quota = (over: Partial<VoiceQuota> = {}): VoiceQuota => ({ used: 2, limit: 10, member: false, ...over });

export function libraryVoice(promptId: number, over: Partial<VoiceItem> = {}): VoiceItem {
  return {
    promptId,
    name: `音色${promptId}`,
    nameZh: `音色${promptId}`,
    nameEn: `Voice ${promptId}`,
    language: "zh",
    gender: "female",
    ageGroup: "adult",
    style: "natural",
    engine: "espeak-ng",
    labels: { language: "中文", gender: "女声", ageGroup: "成年", style: "自然", engine: "标准音质（离线）" },
    sampleText: "你好",
    audioUrl: "",
    playing: false,
    available: true,
    isDefault: promptId === 1,
    ...over,
  };
}
