import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { refreshSession } from "../features/session/session-store.ts";
import { initI18n } from "../lib/i18n.ts";

initI18n("zh");
afterEach(() => {
  cleanup();
  localStorage.clear();
  for (const c of document.cookie.split(";")) {
    const name = c.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; path=/`;
  }
  refreshSession();
});
