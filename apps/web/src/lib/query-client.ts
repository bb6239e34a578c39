import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api-client.ts";

/** Retries only what a retry can fix (network, timeouts, 5xx), never a business refusal. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (!(error instanceof ApiError)) return false;
  return error.kind === "network" || (error.kind === "http" && (error.code >= 500 || error.code === 408));
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
