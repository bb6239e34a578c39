import { describe, expect, it } from "vitest";
import { type ChapterSegment, chapterStarts, offlineChapters } from "../../packages/domain/src/notes/chapters.ts";

/**
 * Offline chapters (issue 24): constructed meetings whose topic changes are known — each topic has its own
 * vocabulary, every segment mixes it with the same everyday words, one segment in six names a word of another
 * topic, and two speakers alternate all along (so only the words can tell). Boundaries must be found within one segment for ≥ 80 % of them.
 */

/** A repeatable pseudo-random sequence (mulberry32), so the constructed text is the same on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN_TOPICS = [
  ["budget", "spending", "invoice", "quarter", "forecast", "revenue", "costs", "accounting"],
  ["hiring", "candidates", "interview", "recruiter", "salary", "onboarding", "resume", "offer"],
  ["server", "database", "outage", "latency", "deployment", "backup", "monitoring", "incident"],
  ["marketing", "campaign", "brand", "audience", "advertising", "launch", "social", "newsletter"],
  ["office", "furniture", "lease", "parking", "kitchen", "cleaning", "desks", "building"],
];
const EN_TEMPLATES = [
  "I think the {a} and the {b} need more attention this week.",
  "So we talked about {a} again, and honestly the {b} is still not clear.",
  "Can someone check the {a} before Friday, because the {b} depends on it?",
  "My feeling is that {a} matters more than {b} right now.",
  "Okay, let us look at the {a} numbers and then the {b} plan.",
  "We should write down who owns the {a} and who follows up on {b}.",
];
const ZH_TOPICS = [
  ["预算", "报销", "发票", "季度", "成本", "收入", "财务", "审计"],
  ["招聘", "面试", "候选人", "薪资", "简历", "入职", "猎头", "岗位"],
  ["服务器", "数据库", "故障", "延迟", "部署", "备份", "监控", "告警"],
  ["营销", "活动", "品牌", "用户", "广告", "推广", "渠道", "海报"],
  ["办公室", "桌椅", "租约", "停车", "厨房", "保洁", "装修", "大楼"],
];
const ZH_TEMPLATES = [
  "我觉得{a}和{b}这周还需要多关注一下。",
  "刚才又说到了{a}，其实{b}那边还是不太清楚。",
  "周五之前谁能看一下{a}，因为{b}要靠它。",
  "我的感觉是现在{a}比{b}更重要。",
  "好，我们先看一下{a}的情况，然后再说{b}的安排。",
  "要记下来{a}由谁负责，{b}由谁跟进。",
];

/** A meeting of `topics`, `perTopic` segments of 6 s each; answers the segments and the true boundaries. */
function meeting(topics: string[][], templates: string[], perTopic: number, seed: number) {
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const segments: ChapterSegment[] = [];
  const boundaries: number[] = [];
  topics.forEach((words, k) => {
    if (k > 0) boundaries.push(segments.length);
    for (let i = 0; i < perTopic; i++) {
      const a = pick(words);
      let b = pick(words);
      while (b === a) b = pick(words);
      // people refer back and ahead: one segment in six also names a word of another topic
      if (next() < 1 / 6) b = pick(pick(topics.filter((_, j) => j !== k)));
      const at = segments.length * 6000;
      // two speakers take turns all along: a speaker change says nothing about the topic here
      segments.push({
        startTime: at,
        endTime: at + 5800,
        text: pick(templates).replace("{a}", a).replace("{b}", b),
        spkName: segments.length % 2 ? "A" : "B",
      });
    }
  });
  return { segments, boundaries };
}

function recall(found: number[], truth: number[]): number {
  const hit = truth.filter((b) => found.some((f) => Math.abs(f - b) <= 1)).length;
  return hit / truth.length;
}

describe("offline chapters (TextTiling on bigrams and words)", () => {
  for (const [lang, topics, templates] of [
    ["en", EN_TOPICS, EN_TEMPLATES],
    ["zh", ZH_TOPICS, ZH_TEMPLATES],
  ] as const) {
    it(`finds ≥ 80 % of the topic changes within one segment (${lang}, 5 meetings)`, () => {
      let found = 0;
      let all = 0;
      for (const seed of [1, 2, 3, 4, 5]) {
        const { segments, boundaries } = meeting(topics as unknown as string[][], [...templates], 30, seed);
        const starts = chapterStarts(segments).slice(1);
        found += recall(starts, boundaries) * boundaries.length;
        all += boundaries.length;
        // and not a chapter per sentence: at most one extra
        expect(starts.length).toBeLessThanOrEqual(boundaries.length + 1);
      }
      console.log(`offline chapters (${lang}): ${found} of ${all} topic changes found within one segment`);
      expect(found / all).toBeGreaterThanOrEqual(0.8);
    });
  }

  it("titles a chapter with its own key words and gives two of its sentences as the gist", () => {
    const { segments } = meeting(ZH_TOPICS, ZH_TEMPLATES, 30, 7);
    const chapters = offlineChapters(segments);
    expect(chapters.length).toBeGreaterThanOrEqual(4);
    const first = chapters[0]!;
    expect(first.startTime).toBe(0);
    expect(ZH_TOPICS[0]!.some((w) => first.title.includes(w))).toBe(true);
    expect(first.gist).toHaveLength(2);
    for (const line of first.gist) expect(segments.slice(first.from, first.to + 1).map((s) => s.text)).toContain(line);
    // chapters tile the transcript: each begins where the last ended
    for (let k = 1; k < chapters.length; k++) expect(chapters[k]!.from).toBe(chapters[k - 1]!.to + 1);
    expect(chapters.at(-1)!.to).toBe(segments.length - 1);

    const en = offlineChapters(meeting(EN_TOPICS, EN_TEMPLATES, 30, 7).segments);
    expect(EN_TOPICS[2]!.some((w) => en[2]!.title.includes(w))).toBe(true);
  });

  it("keeps a short transcript whole, and an empty one has none", () => {
    const { segments } = meeting(EN_TOPICS.slice(0, 2), EN_TEMPLATES, 4, 1);
    expect(offlineChapters(segments)).toHaveLength(1);
    expect(offlineChapters([])).toEqual([]);
  });
});
