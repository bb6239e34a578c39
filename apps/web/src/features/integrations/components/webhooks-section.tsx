import type { WebhookEndpoint } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { ApiError } from "@/lib/api-client.ts";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useUpdateWebhook,
  useWebhookSecret,
  useWebhooks,
} from "../api/webhooks.ts";
import { eventName } from "../lib/event-name.ts";
import { DeliveriesDialog } from "./deliveries-dialog.tsx";
import { SecretDialog } from "./secret-dialog.tsx";
import { WebhookFormDialog } from "./webhook-form-dialog.tsx";

/**
 * Webhook endpoints: add one (its signing secret shown at once, and again on request), the list
 * (URL, events, on or off), switch on and off, deliveries with a test event and re-sending, delete.
 */
export function WebhooksSection() {
  const { t } = useTranslation();
  const hooks = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const reveal = useWebhookSecret();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [watching, setWatching] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const total = hooks.data?.total ?? 0;
  const limit = hooks.data?.limit ?? 10;
  const full = total >= limit;

  const toggle = (hook: WebhookEndpoint) =>
    update.mutate(
      { id: hook.id, enabled: !hook.enabled },
      {
        onSuccess: (after) =>
          toast.success(after.enabled ? t("integrations.enabledToast") : t("integrations.disabledToast")),
      },
    );

  const columns: Column<WebhookEndpoint>[] = [
    {
      id: "url",
      header: t("integrations.hookUrl"),
      kind: "name",
      cell: (h) => (
        <div className="hook-url">
          <code>{h.url}</code>
          {h.description && <span className="muted">{h.description}</span>}
        </div>
      ),
    },
    {
      id: "state",
      header: t("integrations.state"),
      kind: "status",
      cell: (h) => (
        <span className={`hook-chip ${h.enabled ? "tone-ok" : "tone-off"}`} data-testid="hook-state">
          {h.enabled ? t("integrations.enabled") : t("integrations.disabled")}
        </span>
      ),
    },
    {
      id: "events",
      header: t("integrations.events"),
      label: t("integrations.events"),
      kind: "meta",
      cell: (h) => h.events.map((type) => eventName(t, type)).join(t("common.listSeparator")),
    },
    {
      id: "actions",
      header: t("integrations.actions"),
      kind: "actions",
      cell: (h) => (
        <div className="hook-actions">
          <Button size="sm" variant="ghost" onClick={() => setWatching(h)} data-testid={`deliveries-${h.id}`}>
            {t("integrations.deliveries")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => toggle(h)} data-testid={`toggle-${h.id}`}>
            {h.enabled ? t("integrations.disable") : t("integrations.enable")}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              reveal.mutate(h.id, {
                onSuccess: (s) => setSecret({ title: t("integrations.secretTitle"), value: s.secret }),
              })
            }
            data-testid={`secret-${h.id}`}
          >
            {t("integrations.showSecret")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setDeleting(h)} data-testid={`delete-${h.id}`}>
            {t("integrations.delete")}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section className="integrations-section" data-testid="webhooks">
      <div className="integrations-head">
        <h2 className="section-title">
          {t("integrations.hooksTitle")}
          {hooks.data && <span className="muted"> · {t("integrations.hooksCount", { count: total, limit })}</span>}
        </h2>
        <Button size="sm" onClick={() => setAdding(true)} disabled={!hooks.data || full} data-testid="create-hook">
          {t("integrations.createHook")}
        </Button>
      </div>
      <p className="muted integrations-hint">{t("integrations.hooksHint")}</p>
      {full && <p className="muted">{t("integrations.hookLimit", { limit })}</p>}
      <DataTable
        rows={hooks.data?.list ?? []}
        rowId={(h) => h.id}
        rowName={(h) => h.url}
        columns={columns}
        status={{ isPending: hooks.isPending, isError: hooks.isError, retry: () => void hooks.refetch() }}
        empty={<EmptyState text={t("integrations.hooksEmpty")} />}
        testId="webhook-table"
        rowTestId={(id) => `webhook-${id}`}
        phoneLabels
      />
      <WebhookFormDialog
        open={adding}
        pending={create.isPending}
        serverError={create.error instanceof ApiError ? create.error.message : undefined}
        onSubmit={(form) =>
          create.mutate(form, {
            onSuccess: (created) => {
              setAdding(false);
              setSecret({ title: t("integrations.hookCreatedTitle"), value: created.secret });
            },
          })
        }
        onClose={() => {
          setAdding(false);
          create.reset();
        }}
      />
      <SecretDialog
        open={secret !== null}
        title={secret?.title ?? ""}
        secret={secret?.value ?? ""}
        warning={t("integrations.secretText")}
        closeLabel={t("common.close")}
        onClose={() => setSecret(null)}
      />
      <DeliveriesDialog endpoint={watching} onClose={() => setWatching(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("integrations.deleteTitle")}
        text={t("integrations.deleteText", { url: deleting?.url ?? "" })}
        confirmLabel={t("integrations.delete")}
        danger
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              toast.success(t("integrations.deleted"));
            },
          })
        }
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
