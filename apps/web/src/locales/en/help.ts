import type { help as zh } from "../zh/help.ts";

export const help: typeof zh = {
  help: {
    empty: "No help documents yet",
  },
};
