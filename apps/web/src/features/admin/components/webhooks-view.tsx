import type { WebhookEndpoint } from "@yuelu/contracts";
import { WEBHOOKS_MAX } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { ApiError } from "@/lib/api-client.ts";
import {
  useAdminWebhookDeliveries,
  useAdminWebhookSecret,
  useAdminWebhooks,
  useCreateAdminWebhook,
  useDeleteAdminWebhook,
  useTestAdminWebhook,
  useToggleAdminWebhook,
} from "../api/webhooks.ts";
import { formatEpoch } from "../lib/format.ts";
import { DELIVERY_TONES, webhookEventName } from "../lib/webhooks.ts";
import { AdminSection } from "./admin-layout.tsx";
import { WebhookDeliveriesDialog } from "./webhook-deliveries-dialog.tsx";
import { WebhookFormDialog } from "./webhook-form-dialog.tsx";
import { WebhookSecretDialog } from "./webhook-secret-dialog.tsx";

/** The newest delivery of an endpoint: its status and when (one small call per endpoint, at most 10). */
function LastDelivery({ endpointId }: { endpointId: number }) {
  const { t } = useTranslation();
  const last = useAdminWebhookDeliveries(endpointId, 1, 1);
  const delivery = last.data?.list[0];
  if (last.isPending) return <span className="muted">…</span>;
  if (!delivery) return <span className="muted">{last.isError ? "—" : t("admin.webhooks.noDeliveries")}</span>;
  return (
    <span className="admin-actions" data-testid={`last-delivery-${endpointId}`}>
      <Tag tone={DELIVERY_TONES[delivery.status]}>{t(`admin.webhooks.deliveryStatus.${delivery.status}`)}</Tag>
      <span className="muted">{formatEpoch(delivery.createTime)}</span>
    </span>
  );
}

/**
 * Operator-wide webhooks: the endpoints (URL, events, on or off, created, last delivery), adding one
 * (its secret shown once, and again on request: audited), switching on and off, a test event,
 * deliveries with re-sending, deleting.
 */
export function WebhooksView() {
  const { t } = useTranslation();
  const hooks = useAdminWebhooks();
  const create = useCreateAdminWebhook();
  const toggle = useToggleAdminWebhook();
  const remove = useDeleteAdminWebhook();
  const reveal = useAdminWebhookSecret();
  const test = useTestAdminWebhook();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [asking, setAsking] = useState<WebhookEndpoint | null>(null);
  const [watching, setWatching] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const total = hooks.data?.total ?? 0;
  const limit = hooks.data?.limit ?? WEBHOOKS_MAX;
  const full = total >= limit;

  const switchOne = (hook: WebhookEndpoint) =>
    toggle.mutate(
      { id: hook.id, enabled: !hook.enabled },
      {
        onSuccess: (after) =>
          toast.success(after.enabled ? t("admin.webhooks.enabledToast") : t("admin.webhooks.disabledToast")),
      },
    );

  const columns: PagedColumn<WebhookEndpoint>[] = [
    {
      id: "url",
      header: t("admin.webhooks.url"),
      cell: (h) => (
        <div className="admin-webhook-url">
          <span className="admin-mono">{h.url}</span>
          {h.description && <span className="muted">{h.description}</span>}
        </div>
      ),
    },
    {
      id: "events",
      header: t("admin.webhooks.events"),
      cell: (h) => <span className="admin-clip">{h.events.map((e) => webhookEventName(t, e)).join(", ")}</span>,
    },
    {
      id: "state",
      header: t("admin.webhooks.state"),
      cell: (h) => (
        <Tag tone={h.enabled ? "ok" : "off"} testId="webhook-state">
          {h.enabled ? t("admin.field.enabled") : t("admin.field.disabled")}
        </Tag>
      ),
    },
    { id: "created", header: t("admin.webhooks.createdAt"), cell: (h) => formatEpoch(h.createTime) },
    { id: "last", header: t("admin.webhooks.lastDelivery"), cell: (h) => <LastDelivery endpointId={h.id} /> },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (h) => (
        <div className="admin-actions">
          <Button size="sm" variant="secondary" onClick={() => setWatching(h)} data-testid={`deliveries-${h.id}`}>
            {t("admin.webhooks.deliveries")}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={test.isPending}
            onClick={() => test.mutate(h.id, { onSuccess: () => toast.success(t("admin.webhooks.testSent")) })}
            data-testid={`test-${h.id}`}
          >
            {t("admin.webhooks.sendTest")}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={toggle.isPending}
            onClick={() => switchOne(h)}
            data-testid={`toggle-${h.id}`}
          >
            {h.enabled ? t("admin.act.disable") : t("admin.act.enable")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setAsking(h)} data-testid={`secret-${h.id}`}>
            {t("admin.webhooks.showSecret")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setDeleting(h)} data-testid={`delete-${h.id}`}>
            {t("admin.act.remove")}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <AdminSection
      title={
        <>
          {t("admin.webhooks.title")}
          {hooks.data && <span className="muted"> · {t("admin.webhooks.count", { count: total, limit })}</span>}
        </>
      }
      actions={
        <Button size="sm" onClick={() => setAdding(true)} disabled={!hooks.data || full} data-testid="webhook-create">
          {t("admin.webhooks.create")}
        </Button>
      }
      testId="admin-webhooks-section"
    >
      <p className="muted admin-note">{t("admin.webhooks.hint")}</p>
      {full && <p className="muted admin-note">{t("admin.webhooks.limitReached", { limit })}</p>}
      <PagedTable
        columns={columns}
        rowKey={(h) => h.id}
        result={{
          data: hooks.data && { items: hooks.data.list, total },
          isPending: hooks.isPending,
          isError: hooks.isError,
          isFetching: hooks.isFetching,
          refetch: hooks.refetch,
        }}
        empty={<EmptyState text={t("admin.webhooks.empty")} />}
        caption={t("admin.webhooks.tableCaption")}
        testId="webhook-table"
        rowTestId={(h) => `webhook-${h.id}`}
      />
      <WebhookFormDialog
        open={adding}
        pending={create.isPending}
        serverError={create.error instanceof ApiError ? create.error.message : undefined}
        onSubmit={(form) =>
          create.mutate(form, {
            onSuccess: (created) => {
              setAdding(false);
              create.reset();
              setSecret({ title: t("admin.webhooks.createdTitle"), value: created.secret });
            },
          })
        }
        onClose={() => {
          setAdding(false);
          create.reset();
        }}
      />
      <WebhookSecretDialog secret={secret?.value ?? null} title={secret?.title ?? ""} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={asking !== null}
        title={t("admin.webhooks.secretAskTitle")}
        text={t("admin.webhooks.secretAskText")}
        confirmLabel={t("admin.webhooks.secretAsk")}
        pending={reveal.isPending}
        onConfirm={() =>
          asking &&
          reveal.mutate(asking.id, {
            onSuccess: (s) => {
              setAsking(null);
              setSecret({ title: t("admin.webhooks.secretTitle"), value: s.secret });
            },
          })
        }
        onClose={() => setAsking(null)}
      />
      <WebhookDeliveriesDialog endpoint={watching} onClose={() => setWatching(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("admin.webhooks.deleteTitle")}
        text={t("admin.webhooks.deleteText", { url: deleting?.url ?? "" })}
        confirmLabel={t("admin.act.remove")}
        danger
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              toast.success(t("admin.webhooks.deleted"));
            },
          })
        }
        onClose={() => setDeleting(null)}
      />
    </AdminSection>
  );
}
