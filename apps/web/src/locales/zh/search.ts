/** 全局搜索（issue 23）。 */
export const search = {
  search: {
    label: "搜索全部记录",
    placeholder: "搜索转写文字、名称、发言人、摘要",
    hint: "输入关键词，在所有记录的转写文字、名称、发言人和摘要中搜索",
    none: "没有找到与“{{q}}”相关的记录",
    total: "{{count}} 条记录",
    moreHits: "还有 {{count}} 处匹配",
    searchMode: "搜索方式",
    modeSearch: "搜索",
    modeAsk: "提问",
    matchedIn: {
      name: "名称匹配",
      summary: "摘要匹配",
    },
  },
};
