import type { Lang } from "@yuelu/contracts/constants";

/**
 * What the guided recorder asks the user to read: three short sentences (about five seconds each,
 * read calmly), in the language of the voice being made. Varied sounds, plain words, no numbers.
 */
export const READING_PROMPTS: Record<Lang, readonly string[]> = {
  zh: [
    "今天的天气很好，阳光照在湖面上，远处传来孩子们的笑声。",
    "我喜欢在安静的早晨读一本书，再泡一杯热茶，慢慢地开始新的一天。",
    "如果你愿意，我们可以沿着河边散步，一边聊天，一边看看两岸的风景。",
  ],
  en: [
    "The quick brown fox jumps over the lazy dog while the morning sun rises slowly.",
    "I like to read a good book on a quiet evening, with a cup of warm tea beside me.",
    "If you have time tomorrow, we could walk along the river and talk about our plans.",
  ],
};
