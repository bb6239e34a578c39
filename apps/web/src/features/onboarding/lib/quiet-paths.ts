import { paths } from "@/config/paths.ts";

/**
 * Pages no onboarding or engagement dialog opens over (the survey, the welcome gifts, the sign-in
 * reward, the reward, shop and message dialogs): the operator console at /admin, where an operator
 * works on the install, not as a user of it. Leaving it, the dialogs carry on where they were.
 */
export function isQuietPath(pathname: string): boolean {
  // the router matches paths without regard to case: so does this
  const path = pathname.toLowerCase();
  return path === paths.admin || path.startsWith(`${paths.admin}/`);
}
