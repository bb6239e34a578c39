/** AI notes made from a transcript (issue 24): chapters. */
export const notes = {
  notes: {
    chaptersTab: "章节速览",
    offlineChapters: "按话题变化自动分段，标题为各段关键词（未配置大模型）",
    noChapters: "暂无章节",
    chaptersFailed: "章节加载失败",
  },
};
