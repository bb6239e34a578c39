import type { SelectOptions, TtsTask, TtsWork, VoiceItem } from "@yuelu/contracts";

/** Test data shaped like the API's answers (contracts' types), for this feature's component tests. */
export function voice(promptId: number, over: Partial<VoiceItem> = {}): VoiceItem {
  const en = promptId % 2 === 0;
  return {
    promptId,
    name: `音色${promptId}`,
    nameZh: `音色${promptId}`,
    nameEn: `Voice ${promptId}`,
    language: en ? "en" : "zh",
    gender: en ? "male" : "female",
    ageGroup: "adult",
    style: "natural",
    engine: "espeak-ng",
    labels: {
      language: en ? "英文" : "中文",
      gender: en ? "男声" : "女声",
      ageGroup: "成年",
      style: "自然",
      engine: "标准音质（离线）",
    },
    sampleText: "你好，欢迎使用悦录。",
    audioUrl: "",
    playing: false,
    available: true,
    isDefault: promptId === 1,
    ...over,
  };
}

export const selectOptions: SelectOptions = {
  languages: [
    { value: "zh", label: "中文" },
    { value: "en", label: "英文" },
  ],
  genders: [
    { value: "male", label: "男声" },
    { value: "female", label: "女声" },
  ],
  ageGroups: [{ value: "adult", label: "成年" }],
  styles: [{ value: "natural", label: "自然" }],
  engines: [{ value: "espeak-ng", label: "标准音质（离线）" }],
  defaults: { zh: 1, en: 2 },
  limits: {
    maxChars: 5000,
    speed: { min: 0.5, max: 2, default: 1 },
    pitch: { min: -12, max: 12, default: 0 },
    volume: { min: 0.1, max: 2, default: 1 },
    formats: ["mp3", "wav"],
  },
};

export function work(taskId: number, over: Partial<TtsWork> = {}): TtsWork {
  return {
    taskId,
    title: `作品${taskId}`,
    textPreview: "你好",
    chars: 2,
    language: "zh",
    promptId: 1,
    voiceName: "音色1",
    engine: "espeak-ng",
    speed: 1,
    pitch: 0,
    volume: 1,
    format: "mp3",
    status: 2,
    progress: 100,
    durationMs: 1500,
    fileSize: 20_000,
    audioUrl: `/voice_yuelu/tts/download?taskId=${taskId}&inline=1`,
    downloadUrl: `/voice_yuelu/tts/download?taskId=${taskId}`,
    createTime: 1_735_787_045,
    updateTime: 1_735_787_045,
    ...over,
  };
}

export function task(taskId: number, text: string, over: Partial<TtsTask> = {}): TtsTask {
  return { ...work(taskId, { status: 3, progress: 0, audioUrl: "", downloadUrl: "", durationMs: 0 }), text, ...over };
}
