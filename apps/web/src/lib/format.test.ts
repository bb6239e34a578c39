import { describe, expect, it } from "vitest";
import { badgeCount, durationParts, formatDurationText, formatSize, percent, percentText } from "./format.ts";
import { i18n } from "./i18n.ts";

describe("formatting (spec §9)", () => {
  it("caps the unread badge at 99+", () => {
    expect(badgeCount(99)).toBe("99");
    expect(badgeCount(100)).toBe("99+");
  });

  it("sizes in steps of 1024", () => {
    expect(formatSize(1536)).toBe("1.5KB");
    expect(formatSize(1073741824)).toBe("1.0GB");
  });

  it("a reward's stacked parts: minutes under an hour, hours (one decimal, rounded down) from an hour on", () => {
    expect(durationParts(0)).toEqual({ value: 0, unit: "minutes" });
    expect(durationParts(20)).toEqual({ value: 1, unit: "minutes" });
    expect(durationParts(12 * 60)).toEqual({ value: 12, unit: "minutes" });
    expect(durationParts(10800)).toEqual({ value: 3, unit: "hours" });
    expect(durationParts(5400)).toEqual({ value: 1.5, unit: "hours" });
    expect(durationParts(10_675)).toEqual({ value: 2.9, unit: "hours" });
  });

  it("words them in both languages", async () => {
    const t = (k: string, o?: Record<string, unknown>) => i18n.t(k, o);
    await i18n.changeLanguage("zh");
    expect(formatDurationText(t, 720)).toBe("12 分钟");
    expect(formatDurationText(t, 10800)).toBe("3 小时");
    await i18n.changeLanguage("en");
    expect(formatDurationText(t, 720)).toBe("12 min");
    expect(formatDurationText(t, 10800)).toBe("3 h");
    expect(formatDurationText(t, 10800, "long")).toBe("3 hours");
    expect(formatDurationText(t, 3600, "long")).toBe("1 hour");
    expect(formatDurationText(t, 60, "long")).toBe("1 minute");
    expect(formatDurationText(t, 10_740)).toBe("2 h 59 min");
    expect(formatDurationText(t, 3_660, "long")).toBe("1 hour 1 minute");
    await i18n.changeLanguage("zh");
    // a 3-hour card after one minute of use reads hours and minutes, not "2.9 小时"
    expect(formatDurationText(t, 10_740)).toBe("2 小时 59 分钟");
    expect(formatDurationText(t, 10_675)).toBe("2 小时 57 分钟");
    expect(formatDurationText(t, 20)).toBe("1 分钟");
    expect(formatDurationText(t, 0)).toBe("0 分钟");
  });

  it("percents: never '0%' once something is used", () => {
    expect(percent(1800, 10800)).toBe(17);
    expect(percent(5, 0)).toBe(0);
    expect(percentText(0, 10800)).toBe("0%");
    expect(percentText(20, 36000)).toBe("<1%");
    expect(percentText(5400, 10800)).toBe("50%");
  });
});
