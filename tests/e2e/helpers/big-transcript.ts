/**
 * A 5-hour meeting's transcript as the worker stores it (Transcript.asrResult: segments with word
 * timings, times in ms), and a way to put it on a record of a running server. Used by the
 * transcript-size e2e test and bench/detail-render.mjs.
 */

import { seededRandom } from "../../helpers/noise.ts";

export interface BigSegment {
  spkName: string;
  startTime: number;
  endTime: number;
  text: string;
  words: { text: string; startTime: number; endTime: number }[];
}

const PHRASES = [
  "我们先回顾一下上周的进展",
  "预算方面还需要财务再确认一次",
  "这个需求的优先级我觉得可以往后放",
  "用户反馈主要集中在转写速度和准确率上",
  "下个版本计划支持更多的导出格式",
  "测试环境已经部署好了",
  "对，这一点我同意",
  "能不能把时间线再细化一下",
  "市场部那边希望下个月初上线",
  "服务器的成本比预期高了百分之二十",
  "我补充一点",
  "We should double-check the numbers before the review",
  "OK, let's move on",
  "如果没有其他问题，我们就进入下一个议题",
  "这个方案的风险主要在数据迁移",
  "好的，会后我把纪要发给大家",
];

/** `count` segments over `hours` hours, 3 speakers, 1 to 6 phrases each (some lines long, most short). */
export function bigTranscript(count = 3_600, hours = 5): BigSegment[] {
  const next = seededRandom(20_261_122); // the same transcript on every run
  const span = (hours * 3_600_000) / count;
  const segments: BigSegment[] = [];
  for (let i = 0; i < count; i++) {
    const phrases = 1 + Math.floor(next() ** 2 * 6);
    const parts = Array.from({ length: phrases }, () => PHRASES[Math.floor(next() * PHRASES.length)]!);
    const text = `${parts.join("，")}。`;
    const startTime = Math.round(i * span);
    const endTime = Math.round(startTime + span * (0.75 + next() * 0.2));
    const chars = [...text];
    const step = (endTime - startTime) / chars.length;
    segments.push({
      spkName: `说话人${1 + Math.floor(next() * 3)}`,
      startTime,
      endTime,
      text,
      words: chars.map((c, k) => ({
        text: c,
        startTime: Math.round(startTime + k * step),
        endTime: Math.round(startTime + (k + 1) * step),
      })),
    });
  }
  return segments;
}

/** A short silent WAV (16 kHz mono), the record's media: the transcript is what is measured. */
export function silentWav(seconds = 1): Buffer {
  const rate = 16_000;
  const data = rate * 2 * seconds;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/**
 * SQL that makes record `fileId` a complete `seconds`-long transcription with `segments` (as the
 * worker leaves it: fileStatus 2, the transcript row), given to a runner of one parameterised statement.
 */
export async function storeTranscript(
  run: (statement: string, params?: unknown[]) => Promise<unknown>,
  fileId: number,
  segments: readonly BigSegment[],
  seconds: number,
): Promise<void> {
  await run(
    `INSERT INTO transcripts ("fileId", "asrResult", language, abstracts, "updatedAt")
     VALUES ($1, $2::jsonb, 'zh', '', now())
     ON CONFLICT ("fileId") DO UPDATE SET "asrResult" = EXCLUDED."asrResult", "updatedAt" = now()`,
    [fileId, JSON.stringify(segments)],
  );
  await run(`UPDATE audio_records SET "fileStatus" = 2, progress = 100, "timeLen" = $2 WHERE "fileId" = $1`, [
    fileId,
    seconds,
  ]);
}
