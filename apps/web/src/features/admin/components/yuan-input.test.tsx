import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderInApp } from "@/testing/render.tsx";
import { fenToYuanText, formatYuan, yuanToFen } from "../lib/money.ts";
import { YuanInput } from "./yuan-input.tsx";

// The console's texts are registered by its route module; these tests load them the same way.
import "@/testing/admin-texts.ts";

describe("yuan typed, fen sent", () => {
  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["12.50", 1250],
    ["0.29", 29], // a float would make 28.999…
    ["0.07", 7],
    ["19.99", 1999],
    ["¥1,299.00", 129_900],
    [" 84 ", 8400],
    ["12.", 1200],
    ["0", 0],
  ])("'%s' is %d fen", (typed, fen) => {
    expect(yuanToFen(typed)).toBe(fen);
    expect(Number.isInteger(yuanToFen(typed))).toBe(true);
  });

  it.each(["", "abc", "-5", "1.234", "1e3", "12.3.4", ".5", "100000000", "1 2"])("refuses '%s'", (typed) => {
    expect(yuanToFen(typed)).toBeNull();
  });

  it("writes fen back as yuan with two decimals", () => {
    expect(fenToYuanText(1250)).toBe("12.50");
    expect(fenToYuanText(7)).toBe("0.07");
    expect(formatYuan(129_900)).toBe("¥1,299.00");
    expect(formatYuan(-1999)).toBe("-¥19.99");
    expect(formatYuan(0)).toBe("¥0.00");
  });
});

describe("the yuan input", () => {
  it("hands on integer fen as the operator types, and null with an error while it is not a price", async () => {
    const onFen = vi.fn();
    renderInApp(<YuanInput label="售价（元）" initialFen={null} onFenChange={onFen} testId="price" />);
    const input = screen.getByLabelText("售价（元）");
    await userEvent.type(input, "0.29");
    expect(onFen).toHaveBeenLastCalledWith(29);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();

    await userEvent.type(input, "9");
    expect(onFen).toHaveBeenLastCalledWith(null);
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("alert")).toHaveTextContent("最多两位小数");

    await userEvent.clear(input);
    await userEvent.type(input, "¥336");
    expect(onFen).toHaveBeenLastCalledWith(33_600);
    expect(input).not.toHaveAttribute("aria-invalid");
  });

  it("starts from the fen it is given, written in yuan", () => {
    renderInApp(<YuanInput label="原价（元）" initialFen={41_400} onFenChange={() => {}} />);
    expect(screen.getByLabelText("原价（元）")).toHaveValue("414.00");
  });
});
