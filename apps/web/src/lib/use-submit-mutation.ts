import { type DefaultError, type UseMutationOptions, type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useCallback, useRef } from "react";

/**
 * useMutation for what a user submits (create, rename, start, buy, delete): one call at a time. A
 * second call while one is in flight — a double click, Enter and a click, a button not yet disabled
 * because React has not rendered `isPending` — is dropped, not sent: the ref is set in the same event
 * as the first call. Autosaves (a transcript line) use plain useMutation: each of their calls counts.
 */
export function useSubmitMutation<TData = unknown, TError = DefaultError, TVariables = void, TContext = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
): UseMutationResult<TData, TError, TVariables, TContext> {
  const mutation = useMutation(options);
  const inFlight = useRef<Promise<TData> | null>(null);
  const { mutateAsync: run } = mutation;

  const mutateAsync = useCallback(
    (...args: Parameters<typeof run>) => {
      if (inFlight.current) return inFlight.current;
      const call = run(...args).finally(() => {
        inFlight.current = null;
      });
      inFlight.current = call;
      return call;
    },
    [run],
  );
  const mutate = useCallback(
    (...args: Parameters<typeof run>) => {
      if (inFlight.current) return;
      // errors reach the call's onError and the mutation's state; the promise's own rejection is not news
      mutateAsync(...args).catch(() => {});
    },
    [mutateAsync],
  );
  return { ...mutation, mutate, mutateAsync } as UseMutationResult<TData, TError, TVariables, TContext>;
}
