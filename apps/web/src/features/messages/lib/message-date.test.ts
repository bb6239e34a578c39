import { describe, expect, it } from "vitest";
import { formatMessageDate, messageDate } from "./message-date.ts";

/** Local times (the reader's zone): `at(2025, 3, 9, 8, 5)` is 9 March 2025 08:05 here. */
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

describe("spec §9 message dates", () => {
  const now = at(2025, 3, 9, 15, 30);

  it("today as HH:mm", () => {
    expect(messageDate(epoch(at(2025, 3, 9, 8, 5)), now)).toEqual({ kind: "today", text: "08:05" });
    expect(messageDate(epoch(at(2025, 3, 9, 0, 0)), now)).toEqual({ kind: "today", text: "00:00" });
    expect(formatMessageDate(epoch(at(2025, 3, 9, 23, 59)), "昨天", now)).toBe("23:59");
  });

  it("yesterday, by calendar day (23:59 the day before, and a month boundary)", () => {
    expect(formatMessageDate(epoch(at(2025, 3, 8, 23, 59)), "昨天", now)).toBe("昨天");
    expect(formatMessageDate(epoch(at(2025, 3, 8, 0, 1)), "Yesterday", now)).toBe("Yesterday");
    expect(formatMessageDate(epoch(at(2025, 2, 28, 20)), "昨天", at(2025, 3, 1, 9))).toBe("昨天");
    expect(formatMessageDate(epoch(at(2024, 12, 31, 20)), "昨天", at(2025, 1, 1, 9))).toBe("昨天");
  });

  it("earlier this year as MM-dd", () => {
    expect(formatMessageDate(epoch(at(2025, 3, 7, 23)), "昨天", now)).toBe("03-07");
    expect(formatMessageDate(epoch(at(2025, 1, 1, 0, 0)), "昨天", now)).toBe("01-01");
  });

  it("other years as yyyy-MM-dd", () => {
    expect(formatMessageDate(epoch(at(2024, 12, 30)), "昨天", now)).toBe("2024-12-30");
    expect(formatMessageDate(epoch(at(2019, 7, 4)), "昨天", now)).toBe("2019-07-04");
  });
});
