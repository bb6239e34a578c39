import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { pageCount } from "@/lib/table.ts";
import { renderInApp } from "@/testing/render.tsx";
import { TablePager } from "./table-pager.tsx";

function pager(over: Partial<Parameters<typeof TablePager>[0]> = {}) {
  const props = { page: 1, pageSize: 20, total: 45, onPage: vi.fn(), onPageSize: vi.fn(), ...over };
  renderInApp(<TablePager {...props} />);
  return props;
}

describe("the pager", () => {
  it("counts pages from the total (an empty table is page 1 of 1)", () => {
    expect(pageCount(45, 20)).toBe(3);
    expect(pageCount(40, 20)).toBe(2);
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(1, 100)).toBe(1);
  });

  it("shows the total and where one is; previous is off on the first page", async () => {
    const props = pager();
    expect(screen.getByTestId("pager-total")).toHaveTextContent("共 45 条");
    expect(screen.getByTestId("pager-position")).toHaveTextContent("第 1 / 3 页");
    expect(screen.getByRole("button", { name: "上一页" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "下一页" }));
    expect(props.onPage).toHaveBeenCalledWith(2);
  });

  it("next is off on the last page; previous goes back one", async () => {
    const props = pager({ page: 3 });
    expect(screen.getByRole("button", { name: "下一页" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "上一页" }));
    expect(props.onPage).toHaveBeenCalledWith(2);
  });

  it("a page past the end (rows deleted meanwhile) goes back to the last one", async () => {
    const props = pager({ page: 9, total: 45 });
    await userEvent.click(screen.getByRole("button", { name: "上一页" }));
    expect(props.onPage).toHaveBeenCalledWith(3);
  });

  it("changes the page size", async () => {
    const props = pager();
    await userEvent.selectOptions(screen.getByLabelText("每页"), "50");
    expect(props.onPageSize).toHaveBeenCalledWith(50);
  });
});
