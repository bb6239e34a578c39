import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SIGN_DIALOG_DELAY_MS } from "@/config/env.ts";
import { rewardDialog } from "@/lib/app-dialogs.ts";
import { setBusy } from "@/lib/busy.ts";
import { checkinQuery } from "../api/get-checkin.ts";
import { SignInAutoOpen } from "./sign-in-auto-open.tsx";

/** The daily check-in prompt opens by itself, but never over another dialog, an upload or a payment. */
function mount() {
  // the answer is given: nothing asks the network
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  client.setQueryData(checkinQuery.queryKey, { allSignDay: 0, nowMonth: 11, todaySign: false, rewardContentList: [] });
  const done = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <SignInAutoOpen onDone={done} />
    </QueryClientProvider>,
  );
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  rewardDialog.close();
});
afterEach(() => {
  vi.useRealTimers();
  setBusy("upload", false);
  document.body.innerHTML = "";
});

describe("SignInAutoOpen", () => {
  it("opens after its delay when nothing else is going on", () => {
    const done = mount();
    act(() => vi.advanceTimersByTime(SIGN_DIALOG_DELAY_MS + 10));
    expect(rewardDialog.isOpen()).toBe(true);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("waits while an upload is being sent, then opens", () => {
    setBusy("upload", true);
    mount();
    act(() => vi.advanceTimersByTime(SIGN_DIALOG_DELAY_MS + 5000));
    expect(rewardDialog.isOpen()).toBe(false);
    setBusy("upload", false);
    act(() => vi.advanceTimersByTime(1100));
    expect(rewardDialog.isOpen()).toBe(true);
  });

  it("waits while another dialog is open", () => {
    const other = document.createElement("div");
    other.setAttribute("role", "dialog");
    document.body.append(other);
    mount();
    act(() => vi.advanceTimersByTime(SIGN_DIALOG_DELAY_MS + 5000));
    expect(rewardDialog.isOpen()).toBe(false);
    other.remove();
    act(() => vi.advanceTimersByTime(1100));
    expect(rewardDialog.isOpen()).toBe(true);
  });
});
