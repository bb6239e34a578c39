import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { createStore, createToggle, useStore } from "./create-store.ts";

describe("createStore", () => {
  it("notifies subscribers of a change, not of the same value", () => {
    const store = createStore(1);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.set(2);
    store.set((n) => n);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.set(3);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get()).toBe(3);
  });

  it("re-renders a subscribed component; a silent swap does not", () => {
    const store = createStore("a");
    const { result } = renderHook(() => useStore(store));
    act(() => store.set("b"));
    expect(result.current).toBe("b");
    store.replaceSilently("c");
    expect(result.current).toBe("b");
  });

  it("a toggle opens and closes", () => {
    const dialog = createToggle();
    const { result } = renderHook(() => dialog.useIsOpen());
    act(() => dialog.open());
    expect(result.current).toBe(true);
    act(() => dialog.close());
    expect(result.current).toBe(false);
  });
});
