/** Chinese: clips made by selecting words on the detail page (docs/clips.md). */
export const clips = {
  clips: {
    make: "剪辑",
    makeLabel: "把选中的文字剪成片段",
    making: "正在剪辑…",
    noWords: "选中的文字里没有可剪辑的词",
    title: "剪辑片段",
    length: "时长 {{duration}}",
    video: "视频片段",
    audio: "音频片段",
    download: "下载",
    captions: "字幕",
    share: "生成公开链接",
    shareNote: "链接 7 天后失效；可在“分享”里设置密码或撤销。",
    delete: "删除片段",
    deleted: "片段已删除",
    failed: "剪辑失败，请稍后重试",
    cutting: "正在剪辑，请稍候…",
  },
};
