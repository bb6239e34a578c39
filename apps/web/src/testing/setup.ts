import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeEach } from "vitest";
import { initI18n } from "@/lib/i18n.ts";
import { refreshSession } from "@/lib/session.ts";

initI18n("zh");
// findBy*/waitFor wait up to 5 s (not 1 s): the first render of a lazy route transforms its chunk, which a
// busy CI machine can take longer than a second to do
configure({ asyncUtilTimeout: 5_000 });
beforeEach(async () => {
  // happy-dom cannot decode media: files have no length the browser can read (tests that need one
  // hand in their own reader). Imported here, after the test file's own imports and vi.mock()s: a
  // static import would load the API client (and sonner) before a test could mock them.
  const { uploads } = await import("@/features/records/hooks/upload-store.ts");
  uploads.setDurationReader(async () => null);
});
// sonner removes a closed toast 200 ms later, on a timer that outlives the toast's unmount: fired after the
// file's DOM is torn down, it throws "window is not defined" into the run (seen with two files at a time). A
// file that showed a toast waits those 200 ms out before its DOM goes.
afterAll(async () => {
  const { toast } = await import("sonner");
  if (toast.getHistory?.().length) await new Promise((resolve) => setTimeout(resolve, 300));
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  for (const c of document.cookie.split(";")) {
    const name = c.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; path=/`;
  }
  refreshSession();
});
