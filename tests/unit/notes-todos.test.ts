import { offlineActionItems } from "@yuelu/domain";
import { describe, expect, it } from "vitest";

/** Offline to-dos (docs/notes.md "Offline methods"): commitments and requests found by cue phrases. */

const at = (i: number) => i * 7000;
const lines = (rows: [string, string][]) =>
  rows.map(([spkName, text], i) => ({ spkName, text, startTime: at(i), endTime: at(i) + 6000 }));

describe("offlineActionItems", () => {
  it("finds the commitments and requests of a Chinese meeting, with owner, due date and moment", () => {
    const items = offlineActionItems(
      lines([
        ["王经理", "今天主要讨论一下第三季度的预算情况。"],
        ["王经理", "上个月的营收比预期高了百分之五。"],
        ["李娜", "好的，会议纪要我来整理，明天发给大家。"],
        ["王经理", "张三负责跟供应商确认报价，下周三之前给我答复。"],
        ["李娜", "我觉得这个方案还可以。"],
        ["王经理", "请李四在周五前把测试报告提交上来。"],
        ["赵强", "服务器的迁移需要在月底之前完成。"],
        ["赵强", "我会觉得现在的流程有点复杂。"],
        ["李娜", "记得把合同的扫描件发到群里。"],
        ["王经理", "这个项目由陈晨负责。"],
      ]),
    );
    expect(items.map((i) => [i.segmentIndex, i.owner, i.due])).toEqual([
      [2, "李娜", "明天"],
      [3, "张三", "下周三之前"],
      [5, "李四", "周五前"],
      [6, null, "月底之前"],
      [8, null, null],
      [9, "陈晨", null],
    ]);
    expect(items[0]).toMatchObject({ text: "好的，会议纪要我来整理，明天发给大家。", startTime: at(2) });
  });

  it("finds them in an English meeting, and passes over ordinary statements", () => {
    const items = offlineActionItems(
      lines([
        ["Alice", "Thanks everyone for joining. Revenue was up five percent last quarter."],
        ["Bob", "I'll send the updated deck by Friday."],
        ["Alice", "Great. Carol, can you check the server logs before the release?"],
        ["Carol", "Sure. Can you hear me okay?"],
        ["Alice", "We need to finalize the hiring plan next week."],
        ["Bob", "I'll be honest, the numbers surprised me."],
        ["Alice", "Dave will draft the press release tomorrow."],
        ["Carol", "The latency problem started on Monday."],
        ["Alice", "Action item: update the onboarding docs."],
        ["Bob", "We'll see how it goes."],
        ["Alice", "Please review the contract due Thursday."],
      ]),
    );
    expect(items.map((i) => [i.segmentIndex, i.owner, i.due])).toEqual([
      [1, "Bob", "by Friday"],
      [2, "Carol", "before the release"],
      [4, null, "next week"],
      [6, "Dave", "tomorrow"],
      [8, null, null],
      [10, null, "due Thursday"],
    ]);
    expect(items[1]!.text).toBe("Carol, can you check the server logs before the release?");
  });

  it("lists a to-do said twice once, and at most 30", () => {
    const again = offlineActionItems(
      lines([
        ["A", "I'll send the invoice tomorrow."],
        ["B", "OK."],
        ["A", "I'll send the invoice tomorrow!"],
      ]),
    );
    expect(again).toHaveLength(1);
    const many = offlineActionItems(lines(Array.from({ length: 50 }, (_, i) => ["A", `I'll call customer ${i}.`])));
    expect(many).toHaveLength(30);
    expect(offlineActionItems([])).toEqual([]);
  });
});
