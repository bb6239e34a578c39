import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { useSubmitMutation } from "./use-submit-mutation.ts";

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

describe("useSubmitMutation", () => {
  it("sends one request for a double click, and takes the next one once it has settled", async () => {
    const calls: string[] = [];
    let finish: () => void = () => {};
    const { result } = renderHook(
      () =>
        useSubmitMutation({
          mutationFn: (name: string) => {
            calls.push(name);
            return new Promise<string>((resolve) => {
              finish = () => resolve(name);
            });
          },
        }),
      { wrapper },
    );
    const done: string[] = [];
    act(() => {
      // the same event loop turn: React has not rendered isPending yet
      result.current.mutate("a", { onSuccess: (v) => done.push(v) });
      result.current.mutate("a", { onSuccess: (v) => done.push(v) });
    });
    await waitFor(() => expect(calls).toEqual(["a"]));
    await act(async () => finish());
    await waitFor(() => expect(done).toEqual(["a"]));
    act(() => result.current.mutate("b"));
    await waitFor(() => expect(calls).toEqual(["a", "b"]));
    await act(async () => finish());
  });

  it("lets a failed submit be tried again", async () => {
    let attempts = 0;
    const { result } = renderHook(
      () =>
        useSubmitMutation({
          mutationFn: async () => {
            attempts += 1;
            throw new Error("offline");
          },
        }),
      { wrapper },
    );
    await act(async () => {
      await result.current.mutateAsync().catch(() => {});
    });
    await act(async () => {
      await result.current.mutateAsync().catch(() => {});
    });
    expect(attempts).toBe(2);
  });
});
