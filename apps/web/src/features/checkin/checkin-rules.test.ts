import { describe, expect, it } from "vitest";
import { badgeCount, formatSize, hours, percent } from "../../lib/format.ts";
import { dayStatus, signButtonKey } from "./api.ts";
import { shouldAutoOpenSign } from "./sign-in-auto-open.tsx";

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

describe("formatting (spec §9)", () => {
  it("caps the unread badge at 99+", () => {
    expect(badgeCount(99)).toBe("99");
    expect(badgeCount(100)).toBe("99+");
  });
  it("shows quotas in hours with a percent, sizes in steps of 1024", () => {
    expect(hours(10800)).toBe("3");
    expect(hours(5400)).toBe("1.5");
    expect(hours(10_795)).toBe("3");
    expect(percent(1800, 10800)).toBe(17);
    expect(percent(5, 0)).toBe(0);
    expect(formatSize(1536)).toBe("1.5KB");
    expect(formatSize(1073741824)).toBe("1.0GB");
  });
});
