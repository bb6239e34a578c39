/** Chinese (the default language): the /tranSatis rating. */
export const satisfaction = {
  satisfaction: {
    title: "你对这次转写满意吗？",
    subtitle: "你的反馈帮助我们把识别做得更好",
    rating1: "非常不满意",
    rating2: "不满意",
    rating3: "一般",
    rating4: "满意",
    rating5: "非常满意",
    commentLabel: "还想说点什么（选填）",
    commentPlaceholder: "哪里好，哪里还可以更好",
    submit: "提交评价",
    sending: "提交中…",
    failed: "评价没有提交成功：{{reason}}。请稍后重试。",
    thanks: "感谢你的反馈！",
  },
};
