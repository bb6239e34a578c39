import { describe, expect, it } from "vitest";
import { giftCodeInput, giftCodeProblem } from "./gift-code.ts";
import { canClaim, taskProgress, taskState } from "./tasks.ts";

describe("spec §5 gift code", () => {
  it("empty → 'please fill in the redeem code'; short or not letters and digits → 'a correct code'", () => {
    expect(giftCodeProblem("")).toBe("empty");
    expect(giftCodeProblem("   ")).toBe("empty");
    expect(giftCodeProblem("ABC123")).toBe("invalid");
    expect(giftCodeProblem("ABCD-123")).toBe("invalid");
    expect(giftCodeProblem("ABCD1234")).toBeNull();
    expect(giftCodeProblem("abcd1234")).toBeNull();
  });

  it("keeps at most 8 characters, without spaces, in upper case", () => {
    expect(giftCodeInput(" ab cd 1234 5678")).toBe("ABCD1234");
    expect(giftCodeInput("xyz")).toBe("XYZ");
  });
});

describe("spec §4 tasks", () => {
  it("claims only at progressStatus 1", () => {
    expect(taskState({ progressStatus: 0 })).toBe("unfinished");
    expect(taskState({ progressStatus: 1 })).toBe("claimable");
    expect(taskState({ progressStatus: 2 })).toBe("claimed");
    expect(taskState({ progressStatus: 7 })).toBe("claimed");
    expect([0, 1, 2].map((progressStatus) => canClaim({ progressStatus }))).toEqual([false, true, false]);
  });

  it("shows counts as done/total and large goals as a percent", () => {
    expect(taskProgress({ progressAmount: 3, progressFinish: 7 })).toMatchObject({
      done: 3,
      total: 7,
      asPercent: false,
    });
    expect(taskProgress({ progressAmount: 9, progressFinish: 7 })).toMatchObject({ done: 7, percent: 100 });
    expect(taskProgress({ progressAmount: 1200, progressFinish: 3600 })).toMatchObject({
      percent: 33,
      asPercent: true,
    });
  });
});
