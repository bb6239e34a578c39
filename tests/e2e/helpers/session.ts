import type { BrowserContext } from "playwright-core";
import { expect } from "vitest";

/** POSTs a JSON body through the browser context (its cookies), expecting the success envelope; answers `data`. */
export async function callApi<T = unknown>(
  context: BrowserContext,
  baseUrl: string,
  pathname: string,
  data: unknown = {},
): Promise<T> {
  const res = await context.request.post(`${baseUrl}/voice_yuelu${pathname}`, { data });
  const body = (await res.json()) as { status_code: number; status_msg: string; data: T };
  expect(body.status_code, `${pathname}: ${body.status_msg}`).toBe(1);
  return body.data;
}

/**
 * Signs a new account in through the local-host dev login, with the survey answered and the welcome
 * gifts announced, so onboarding does not cover the pages under test (the shell test covers it),
 * and — unless `checkIn: false` — today's check-in done. Answers the user's id.
 */
export async function signInNewUser(
  context: BrowserContext,
  baseUrl: string,
  phone: string,
  { checkIn = true }: { checkIn?: boolean } = {},
): Promise<number> {
  const res = await context.request.get(
    `${baseUrl}/account/dev-login?phone=${phone}&redir=${encodeURIComponent(`${baseUrl}/`)}`,
    { maxRedirects: 0 },
  );
  expect(res.status()).toBe(302);
  await callApi(context, baseUrl, "/api/v1/update_info_collect", { identity: "Skip", channel: "Skip" });
  await callApi(context, baseUrl, "/api/v1/user/update_info", { giftsShown: ["new_user", "invite", "black_card"] });
  if (checkIn) await callApi(context, baseUrl, "/api/v1/store/sign");
  return Number((await context.cookies()).find((c) => c.name === "userid")?.value);
}
