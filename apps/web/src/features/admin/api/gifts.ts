import { useQueryClient } from "@tanstack/react-query";
import type {
  AdminGiftBatch,
  AdminGiftBatchCreated,
  AdminGiftCode,
  AdminGiftKind,
  AdminGiftRedemption,
} from "@yuelu/contracts";
import { apiBase } from "@/config/env.ts";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

export type GiftBatchFilter = "q";
export type GiftCodeFilter = "batch" | "code" | "status";

/** GET /admin/gift-codes/batches: each batch with its codes' usage. */
export function useGiftBatches(query: TableQuery & Record<GiftBatchFilter, string>) {
  return useAdminList<AdminGiftBatch>("gifts", adminPaths.giftBatches, query);
}

/** GET /admin/gift-codes: codes, of one batch or all. */
export function useGiftCodes(query: TableQuery & Record<GiftCodeFilter, string>) {
  return useAdminList<AdminGiftCode>("gifts", adminPaths.giftCodes, query);
}

/** GET /admin/gift-codes/:id/redemptions: who redeemed the code, when (paged; newest first by default). */
export function useGiftRedemptions(codeId: number | null, query: TableQuery) {
  return useAdminList<AdminGiftRedemption>("gifts", adminPaths.giftCodeRedemptions(codeId ?? 0), query, {
    enabled: codeId !== null,
  });
}

export interface NewGiftBatch {
  batch: string;
  kind: AdminGiftKind;
  reward: number;
  count: number;
  maxUses: number;
  /** YYYY-MM-DD: the end of that day (Beijing time) */
  expiresAt?: string;
}

/** POST /admin/gift-codes/batches: the batch name is the key, so sending it again answers the same codes. */
export function useCreateGiftBatch() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (body: NewGiftBatch) =>
      adminApi<AdminGiftBatchCreated>(adminPaths.giftBatches, { method: "POST", data: body }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("gifts") }),
  });
}

/** POST /admin/gift-codes/:id/disable or /admin/gift-codes/batches/disable (`disabled: false` enables again). */
export function useDisableGifts() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (target: { codeId: number; disabled: boolean } | { batch: string; disabled: boolean }) =>
      "codeId" in target
        ? adminApi<{ changed: number }>(adminPaths.giftCodeDisable(target.codeId), {
            method: "POST",
            data: { disabled: target.disabled },
          })
        : adminApi<{ changed: number }>(adminPaths.giftBatchDisable, {
            method: "POST",
            data: { batch: target.batch, disabled: target.disabled },
          }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("gifts") }),
  });
}

/** The CSV of one batch (GET /admin/gift-codes/export): a plain link, the browser downloads it. */
export function giftExportUrl(batch: string): string {
  return `${apiBase()}/admin${adminPaths.giftExport}?${new URLSearchParams({ batch })}`;
}
