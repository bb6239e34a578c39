import { describe, expect, it } from "vitest";
import { dayStatus, shouldAutoOpenSign, signButtonKey } from "./checkin-rules.ts";

describe("check-in rules (spec §4)", () => {
  it("marks days signed, signable today, or not yet", () => {
    const info = { allSignDay: 3, todaySign: false };
    expect([0, 1, 2, 3, 4].map((i) => dayStatus(i, info))).toEqual([0, 0, 0, 1, 2]);
    expect([2, 3].map((i) => dayStatus(i, { allSignDay: 3, todaySign: true }))).toEqual([0, 2]);
  });

  it("labels the button signed / member double / sign in", () => {
    expect(signButtonKey(true, true)).toBe("checkin.signed");
    expect(signButtonKey(false, true)).toBe("checkin.memberDouble");
    expect(signButtonKey(false, false)).toBe("checkin.signIn");
  });

  it("auto-opens only when not signed today and openSign is unset or 1", () => {
    expect(shouldAutoOpenSign(false, null)).toBe(true);
    expect(shouldAutoOpenSign(false, "1")).toBe(true);
    expect(shouldAutoOpenSign(false, "0")).toBe(false);
    expect(shouldAutoOpenSign(true, null)).toBe(false);
  });
});
