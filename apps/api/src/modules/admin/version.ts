import { readFileSync } from "node:fs";

/** The install's version: the root package.json's, read once. */
export const APP_VERSION: string = (() => {
  try {
    const root = new URL("../../../../../package.json", import.meta.url);
    return (JSON.parse(readFileSync(root, "utf8")) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
})();
