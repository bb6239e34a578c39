import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import type { DictationResult, DictationTask, TranscriptionLanguage } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { toast } from "sonner";
import { refreshBalances } from "@/lib/account.ts";
import { ApiError, api, codeMessage, SUCCESS } from "@/lib/api-client.ts";
import { type CashierOptions, openCashier } from "@/lib/app-dialogs.ts";
import { i18n } from "@/lib/i18n.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/**
 * What the user picks before transcribing: the language and the speaker count (0 = detect). No language
 * until one is chosen or preselected (lib/languages.ts pickLanguage): there is no silent default.
 */
export interface DictationOptions {
  language: TranscriptionLanguage | null;
  speakerCount: number;
}

/** Options a transcription can start with: a language is chosen. */
export type ChosenOptions = DictationOptions & { language: TranscriptionLanguage };

export const DEFAULT_OPTIONS: DictationOptions = { language: null, speakerCount: 0 };

/** The options, once a language is chosen (else null: nothing can start yet). */
export function chosenOptions(options: DictationOptions): ChosenOptions | null {
  return options.language ? { ...options, language: options.language } : null;
}

/**
 * What a refusal offers to fix it: not enough card time (20001) → the cashier's duration cards;
 * today's cap reached (50002) → membership, whose cap is higher — not for a member, who has it.
 */
function remedy(code: number, isMember: boolean): { label: string; cashier: CashierOptions } | null {
  if (code === StatusCode.StorageQuotaExceeded) return { label: "common.buyTime", cashier: { defaultTab: "card" } };
  if (code === StatusCode.DailyQuotaExceeded && !isMember)
    return { label: "common.openVip", cashier: { defaultTab: "membership" } };
  return null;
}

/**
 * The files that were queued; each refused file (50001 too long, 50002 daily cap, 20001 card time,
 * 30001 gone) is toasted with its reason, as the API client toasts a refused call, and with a way
 * to the cashier where buying fixes it.
 */
export function acceptedFiles(tasks: DictationTask[], { isMember = false } = {}): number[] {
  const accepted: number[] = [];
  for (const task of tasks) {
    if (task.code === SUCCESS) {
      accepted.push(task.fileId);
      continue;
    }
    const fix = remedy(task.code, isMember);
    toast.error(task.message || codeMessage(task.code), {
      id: `dictation-${task.fileId}-${task.code}`,
      ...(fix ? { action: { label: i18n.t(fix.label), onClick: () => openCashier(fix.cashier) } } : {}),
    });
  }
  return accepted;
}

/** Spec §7: dictationParam is JSON with source 0 and answerVersion 3. */
export function dictationParam(options: ChosenOptions, hotWords: string[] = []): string {
  return JSON.stringify({
    source: 0,
    answerVersion: 3,
    language: options.language,
    speakerCount: options.speakerCount,
    ...(hotWords.length > 0 ? { hotWords } : {}),
  });
}

export function startDictation(fileIds: number[], options: ChosenOptions, hotWords: string[] = []) {
  return api<DictationResult>("/api/v2/dictation/audio/dictation_batch", {
    data: { fileIds: fileIds.join(","), dictationParam: dictationParam(options, hotWords) },
  });
}

const engineChanged = (client: QueryClient) =>
  void client.invalidateQueries({ queryKey: queryKeys.dictationConfig(i18n.language) });

/**
 * What follows queued transcriptions, whoever asked: the server charges them at once (card time and today's
 * quota), so the header and the quota bars are fetched again right away — not when the transcript is done.
 * A refusal for want of an engine (70001) means the engine's state changed under the language choice: it is
 * asked for again.
 */
export function afterDictation(client: QueryClient, tasks: DictationTask[]) {
  void client.invalidateQueries({ queryKey: queryKeys.records.all });
  refreshBalances(client);
  if (tasks.some((task) => task.code === StatusCode.EngineUnavailable)) engineChanged(client);
}

/** A dictation call refused whole: a missing engine (70001) asks for the language choice again. */
export function afterDictationError(client: QueryClient, error: unknown) {
  if (error instanceof ApiError && error.code === StatusCode.EngineUnavailable) engineChanged(client);
}

/**
 * Queues transcriptions (afterDictation). A refusal for want of an engine (70001, whole or per file) carries
 * the server's translated sentence, shown as it is (by the API client, or acceptedFiles).
 */
export function useStartDictation() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (v: { fileIds: number[]; options: ChosenOptions; hotWords?: string[] }) =>
      startDictation(v.fileIds, v.options, v.hotWords),
    onSuccess: ({ tasks }) => afterDictation(client, tasks),
    onError: (error) => afterDictationError(client, error),
  });
}
