/** Chinese (the default language): the help centre. */
export const help = {
  help: {
    empty: "暂无帮助文档",
  },
};
