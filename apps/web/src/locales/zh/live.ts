/** 录音时的实时字幕（features/records/live）。 */
export const live = {
  live: {
    title: "实时字幕",
    language: "字幕语言",
    lang_auto: "自动",
    lang_zh: "中文",
    lang_en: "英文（仅适用于英文语音）",
    lang_zhUnavailable: "中文（暂不支持）",
    off: "关闭",
    listening: "正在听…",
    connecting: "正在连接实时字幕…",
    reconnecting: "连接中断，正在重连（音频不会丢失）…",
    zhNeedsModel: "暂不支持中文实时字幕，录音和转写不受影响。",
    unavailable: "{{message}}，录音和转写不受影响。",
    refused: "实时字幕未开启：{{message}}",
    stopped: "实时字幕已停止：{{message}}",
    stoppedRecording: "实时字幕已停止：{{message}} 录音仍在继续，停止后照常上传。",
    preview: "以上为实时预览；录音转写完成后，以完整转写稿为准。",
    empty: "录音时，说话内容会实时显示在这里。",
    replaced: "录音已转写完成，完整转写稿已替代实时字幕。",
    openTranscript: "查看转写稿",
  },
};
