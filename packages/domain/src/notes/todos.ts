import type { ActionItem, Segment } from "@yuelu/contracts";
import { splitSentences } from "./summary.ts";

/**
 * Offline to-dos (docs/notes.md "Offline methods"): the sentences of a transcript in which someone commits
 * to something ("我来整理", "I'll send the deck") or asks for it ("请张三周五前提交", "can you check the logs"),
 * found by cue phrases in Chinese and English. Honest, not clever: a sentence needs a strong cue (a
 * commitment, a request, "action item"), or a weak one ("需要", "we need to") together with a time it is due
 * by; common turns of speech that only look like cues ("我会觉得", "I'll be honest", "can you hear me") are
 * passed over. Owner: the speaker when they commit themselves, a name when one is said with the task;
 * due: the time phrase as said.
 */

export const MAX_ACTION_ITEMS = 30;

type Line = Pick<Segment, "spkName" | "text" | "startTime">;

// ── Chinese ──
/** I (or we) commit: 我来, 我会, 我去, 我负责, 由我, 交给我, 我这边来… */
const ZH_SELF = /(?:我来|我会|我去|我负责|由我|交给我|我这边(?:来|会|去|负责)|我回头|我下来|我稍后|我马上)/u;
const ZH_WE = /(?:我们来|我们会|我们去|咱们来)/u;
/** …but not "I'd think", "I can", "I'll say" */
const ZH_SELF_NOT = /我(?:会|来)(?:觉得|认为|说|讲|想|感觉|不会)|我会的|我来说两句|我会议/u;
/** asked of someone: 请 (not 请问/申请/邀请), 麻烦, 记得, 别忘了, 务必 */
const ZH_REQUEST =
  /(?<![申邀聘宴敬])请(?!问|教|假|客)|麻烦(?:你|您|大家)|记得|别忘了|不要忘了|务必|一定要|待办|行动项|跟进一下/u;
/** a name followed by what they will do: 张三负责…, 李四来整理…, 王五会在周五前… */
const ZH_NAMED =
  /(?:^|[，,；;：:\s])([\p{Script=Han}]{2,3}?)(?:负责|来(?:做|写|整理|跟进|准备|处理|安排|对接|确认)|会在|去(?:做|跟进|联系|确认|找)|跟进)/u;
/** 由张三负责, 交给李四: the person it is given to */
const ZH_GIVEN = /(?:由|交给|让)([\p{Script=Han}]{2,3}?)(?:负责|来|去|处理|跟进|$|[，,。])/u;
/** 请张三…: the person asked */
const ZH_ASKED = /请([\p{Script=Han}]{2,3}?)(?:在|于|把|帮|尽快|负责|准备|整理|跟进|确认|提交|发|写|看)/u;
/** characters no name is made of (pronouns, "this", "all", verbs of the cue itself) */
const NOT_A_NAME = /[我你他她它这那谁都也就还要会来去是不没的了大家们每各个边天周月年]/u;
const ZH_WEAK = /(?:需要|要在|得在|必须|应该|要把|得把)/u;
const ZH_DUE = new RegExp(
  "(?:下(?:个)?(?:周|星期|礼拜)[一二三四五六日天]?|本周[一二三四五六日天]?|这(?:个)?(?:周|星期|礼拜)[一二三四五六日天]?|" +
    "(?:周|星期|礼拜)[一二三四五六日天]|明天|后天|今天|今晚|明早|月底|年底|月初|下个?月|" +
    "(?:\\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\\d{1,2}|[一二三四五六七八九十]{1,3})[日号])" +
    "(?:之前|以前|前|下班前|中午|上午|下午|晚上)?",
  "u",
);
/** 在上线之前, 要在评审以前: the event it is due before */
const ZH_BEFORE = /在([^，,。；;\s]{1,10}?)(?:之前|以前)/u;

// ── English ──
const EN_SELF =
  /\b(?:I'll|I will|I'm going to|I am going to|let me (?:take|handle|check|send|follow|look|write|draft|set|do))\b/i;
const EN_SELF_NOT =
  /\b(?:I'll|I will) (?:be honest|tell you|say|admit|give you that|leave it there|be quick|try to explain)\b|\bI'll pass\b/i;
const EN_WE = /\b(?:we'll|we will|we're going to|we are going to)\b/i;
const EN_WE_NOT = /\b(?:we'll|we will) (?:see|talk|get there|find out)\b/i;
const EN_REQUEST =
  /\b(?:can you|could you|would you|please|action item|to-?do|follow up on|make sure to|don't forget to)\b/i;
const EN_REQUEST_NOT =
  /\b(?:can|could) you (?:hear|see|repeat|say that|believe|imagine)\b|\bplease (?:note|hold|go ahead|continue)\b/i;
/** a capitalised name and what they will do ("Alice will", "Bob's going to", "assigned to Carol") */
const EN_NAMED = /\b([A-Z][a-z]{1,15})(?: will| is going to|'s going to|'ll| is responsible for| can take| to take)\b/;
const EN_ADDRESSED =
  /(?:^|[.!?]\s*)([A-Z][a-z]{1,15}), (?:can|could|would|please|will) you\b|\bassigned to ([A-Z][a-z]{1,15})\b/;
const NOT_A_NAME_EN = new Set(
  "I We You He She It They This That There These Those Who What Which When Where Why How Someone Somebody Everyone Everybody Nobody Anyone Then So And But Or Maybe Next Also The A An If Well Okay Ok Yes No Now Today Tomorrow Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(
    " ",
  ),
);
const EN_WEAK = /\b(?:we need to|we have to|we must|need to|needs to|have to|has to|should|must)\b/i;
const DAY = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri";
const EN_DUE = new RegExp(
  `\\b(?:(?:by|before|until|due(?: on| by)?|on) (?:the end of (?:the )?(?:day|week|month|quarter)|end of (?:the )?(?:day|week|month|quarter)|EOD|EOW|tomorrow|tonight|next (?:week|month|${DAY})|this (?:week|month|${DAY})|(?:${DAY})(?: morning| afternoon| evening)?|the (?:meeting|launch|release|review|demo)|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \\d{1,2}(?:st|nd|rd|th)?)|tomorrow(?: morning| afternoon)?|tonight|next (?:week|month|${DAY})|this (?:week|${DAY})|end of (?:the )?(?:day|week|month))\\b`,
  "i",
);

interface Found {
  owner: string | null;
  due: string | null;
}

function chineseCue(sentence: string, speaker: string): Found | null {
  const before = ZH_BEFORE.exec(sentence);
  const due = ZH_DUE.exec(sentence)?.[0] ?? (before ? `${before[1]}之前` : null);
  const named = ZH_NAMED.exec(sentence)?.[1] ?? ZH_GIVEN.exec(sentence)?.[1] ?? ZH_ASKED.exec(sentence)?.[1];
  const name = named && !NOT_A_NAME.test(named) ? named : null;
  const self = ZH_SELF.test(sentence) && !ZH_SELF_NOT.test(sentence);
  if (self) return { owner: speaker || null, due };
  if (name) return { owner: name, due };
  if (ZH_WE.test(sentence) || ZH_REQUEST.test(sentence)) return { owner: null, due };
  if (due && ZH_WEAK.test(sentence)) return { owner: null, due };
  return null;
}

function englishCue(sentence: string, speaker: string): Found | null {
  const due = EN_DUE.exec(sentence)?.[0] ?? null;
  const addressed = EN_ADDRESSED.exec(sentence);
  const named = addressed?.[1] ?? addressed?.[2] ?? EN_NAMED.exec(sentence)?.[1];
  const name = named && !NOT_A_NAME_EN.has(named) ? named : null;
  if (EN_SELF.test(sentence) && !EN_SELF_NOT.test(sentence)) return { owner: speaker || null, due };
  if (name) return { owner: name, due };
  if (EN_WE.test(sentence) && !EN_WE_NOT.test(sentence) && (due || EN_WEAK.test(sentence))) return { owner: null, due };
  if (EN_REQUEST.test(sentence) && !EN_REQUEST_NOT.test(sentence)) return { owner: null, due };
  if (due && EN_WEAK.test(sentence)) return { owner: null, due };
  return null;
}

const key = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** The to-dos said in a transcript, in the order they were said (at most MAX_ACTION_ITEMS, no repeats). */
export function offlineActionItems(segments: Line[]): ActionItem[] {
  const items: ActionItem[] = [];
  const seen = new Set<string>();
  segments.forEach((segment, segmentIndex) => {
    for (const sentence of splitSentences(segment.text)) {
      if (items.length >= MAX_ACTION_ITEMS) return;
      // a question about the past or an aside of a word or two is no task
      if ([...sentence].length < 4) continue;
      const found = /\p{Script=Han}/u.test(sentence)
        ? (chineseCue(sentence, segment.spkName) ?? englishCue(sentence, segment.spkName))
        : englishCue(sentence, segment.spkName);
      if (!found) continue;
      const k = key(sentence);
      if (seen.has(k)) continue;
      seen.add(k);
      items.push({ text: sentence, owner: found.owner, due: found.due, segmentIndex, startTime: segment.startTime });
    }
  });
  return items;
}
