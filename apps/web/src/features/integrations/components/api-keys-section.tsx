import type { ApiKey, ApiKeyCreated } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../api/api-keys.ts";
import { SecretDialog } from "./secret-dialog.tsx";

/** API_KEY_NAME_MAX of contracts/api-keys.ts (a zod file, so not imported here); the list answers the count limit. */
const NAME_MAX = 30;

/** API keys: create (the key shown once), the list (name, prefix, created, last used), revoke. */
export function ApiKeysSection() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [naming, setNaming] = useState(false);
  const [made, setMade] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const total = keys.data?.total ?? 0;
  const limit = keys.data?.limit ?? 10;
  const full = total >= limit;

  const columns: Column<ApiKey>[] = [
    { id: "name", header: t("integrations.keyName"), kind: "name", cell: (k) => k.name },
    {
      id: "prefix",
      header: t("integrations.keyPrefix"),
      label: t("integrations.keyPrefix"),
      kind: "meta",
      cell: (k) => <code>{k.prefix}…</code>,
    },
    {
      id: "created",
      header: t("integrations.created"),
      label: t("integrations.created"),
      kind: "meta",
      cell: (k) => formatDateTime(k.createTime),
    },
    {
      id: "lastUsed",
      header: t("integrations.lastUsed"),
      label: t("integrations.lastUsed"),
      kind: "meta",
      cell: (k) => (k.lastUsedTime ? formatDateTime(k.lastUsedTime) : t("integrations.neverUsed")),
    },
    {
      id: "actions",
      header: t("integrations.actions"),
      kind: "actions",
      cell: (k) => (
        <Button size="sm" variant="ghost" onClick={() => setRevoking(k)} data-testid={`revoke-${k.id}`}>
          {t("integrations.revoke")}
        </Button>
      ),
    },
  ];

  return (
    <section className="integrations-section" data-testid="api-keys">
      <div className="integrations-head">
        <h2 className="section-title">
          {t("integrations.keysTitle")}
          {keys.data && <span className="muted"> · {t("integrations.keysCount", { count: total, limit })}</span>}
        </h2>
        <Button size="sm" onClick={() => setNaming(true)} disabled={!keys.data || full} data-testid="create-key">
          {t("integrations.createKey")}
        </Button>
      </div>
      <p className="muted integrations-hint">{t("integrations.keysHint")}</p>
      {full && <p className="muted">{t("integrations.keyLimit", { limit })}</p>}
      <DataTable
        rows={keys.data?.list ?? []}
        rowId={(k) => k.id}
        rowName={(k) => k.name}
        columns={columns}
        status={{ isPending: keys.isPending, isError: keys.isError, retry: () => void keys.refetch() }}
        empty={<EmptyState text={t("integrations.keysEmpty")} />}
        testId="api-key-table"
        rowTestId={(id) => `api-key-${id}`}
        phoneLabels
      />
      <NameFormDialog
        open={naming}
        title={t("integrations.createKey")}
        label={t("integrations.keyName")}
        placeholder={t("integrations.keyNamePlaceholder")}
        initial=""
        min={1}
        max={NAME_MAX}
        invalidText={t("integrations.keyNameInvalid")}
        pending={create.isPending}
        onSubmit={(name) =>
          create.mutate(name, {
            onSuccess: (created) => {
              setNaming(false);
              setMade(created);
            },
          })
        }
        onClose={() => setNaming(false)}
      />
      <SecretDialog
        open={made !== null}
        title={t("integrations.keyCreatedTitle")}
        secret={made?.key ?? ""}
        warning={t("integrations.keyShownOnce")}
        closeLabel={t("integrations.keySaved")}
        mustConfirm
        onClose={() => setMade(null)}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t("integrations.revokeTitle", { name: revoking?.name ?? "" })}
        text={t("integrations.revokeText")}
        confirmLabel={t("integrations.revoke")}
        danger
        pending={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              setRevoking(null);
              toast.success(t("integrations.revoked"));
            },
          })
        }
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
