import type { session as zh } from "../zh/session.ts";

export const session: typeof zh = {
  loginDialog: {
    title: "Sign in to Yuelu",
  },
};
