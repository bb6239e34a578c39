import { render, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { type Selection, useSelection } from "@/hooks/use-selection.ts";
import { type Column, DataTable } from "./data-table.tsx";

interface Row {
  id: number;
  name: string;
}
const rows: Row[] = [
  { id: 1, name: "一.mp3" },
  { id: 2, name: "二.mp3" },
];
const columns: Column<Row>[] = [
  { id: "name", header: "文件名", kind: "name", cell: (r) => r.name },
  { id: "actions", header: "操作", kind: "actions", cell: (r) => <button type="button">打开 {r.name}</button> },
];
const ok = { isPending: false, isError: false, retry: () => {} };

function table(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  return (
    <DataTable<Row>
      testId="table"
      rows={rows}
      rowId={(r) => r.id}
      rowName={(r) => r.name}
      columns={columns}
      status={ok}
      empty={<p>空空如也</p>}
      {...props}
    />
  );
}

describe("DataTable", () => {
  it("renders the columns the page gives, one row each", () => {
    render(table());
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["文件名", "操作"]);
    expect(screen.getByTestId("record-2")).toHaveTextContent("二.mp3");
    expect(screen.getByRole("button", { name: "打开 一.mp3" })).toBeInTheDocument();
  });

  it("shows loading, error (with retry) and empty states instead of the table", async () => {
    const { rerender } = render(table({ status: { ...ok, isPending: true } }));
    expect(screen.getByRole("status")).toBeInTheDocument();
    const retry = vi.fn();
    rerender(table({ status: { ...ok, isError: true, retry } }));
    await userEvent.click(screen.getByRole("button", { name: "重试" }));
    expect(retry).toHaveBeenCalled();
    rerender(table({ rows: [] }));
    expect(screen.getByText("空空如也")).toBeInTheDocument();
    expect(screen.queryByTestId("table")).toBeNull();
  });

  it("selects rows, offers the batch actions for them, and clears", async () => {
    const { result } = renderHook(() => useSelection(rows.map((r) => r.id)));
    const batch = vi.fn((selected: Row[]) => <span>批量 {selected.length}</span>);
    const view = (selection: Selection) => table({ selection, batchActions: batch });
    const { rerender } = render(view(result.current));
    expect(screen.queryByTestId("batch-bar")).toBeNull();
    await userEvent.click(screen.getByRole("checkbox", { name: "选择 二.mp3" }));
    rerender(view(result.current));
    expect(screen.getByTestId("batch-bar")).toHaveTextContent("已选 1 项");
    expect(screen.getByTestId("batch-bar")).toHaveTextContent("批量 1");
    await userEvent.click(screen.getByRole("checkbox", { name: "全选本页" }));
    rerender(view(result.current));
    expect(screen.getByTestId("batch-bar")).toHaveTextContent("已选 2 项");
    await userEvent.click(screen.getByRole("button", { name: "取消选择" }));
    rerender(view(result.current));
    expect(screen.queryByTestId("batch-bar")).toBeNull();
  });

  it("pages through the list", async () => {
    const onPage = vi.fn();
    render(table({ pagination: { page: 1, pageSize: 20, total: 45, onPage } }));
    expect(screen.getByTestId("page-of")).toHaveTextContent("1 / 3");
    expect(screen.getByText("共 45 条")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "下一页" }));
    expect(onPage).toHaveBeenCalledWith(2);
  });
});
