import { createToggle } from "./create-store.ts";

/**
 * Dialogs any part of the app may open: the login dialog (header, a page's 'sign in to view') and
 * the reward dialog (the header's beans, the sign-in reward after onboarding). The dialogs
 * themselves belong to their features; app/root-shell.tsx renders them.
 */
export const loginDialog = createToggle();
export const rewardDialog = createToggle();
