import type { Person } from "@yuelu/contracts";
import { SPEAKER_NAME_MAX } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useForgetPerson, usePeople, useRememberVoices, useRenamePerson } from "../api/people.ts";
import "./people-page.css";

/** Han characters, English letters and digits (the speaker-name rule, contracts/limits.ts). */
const NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9]+$/u;

/**
 * People / 声纹 (docs/people.md): the voices the account remembers — each person's name, the recordings they
 * speak in (and how many suggestions wait), rename, forget (the voiceprint deleted at once) — and the switch
 * that turns remembering off (everything forgotten at once, nothing kept or matched after).
 */
export function PeoplePage() {
  const { t } = useTranslation();
  const people = usePeople();
  const rename = useRenamePerson();
  const forget = useForgetPerson();
  const remember = useRememberVoices();
  const [renaming, setRenaming] = useState<Person | null>(null);
  const [forgetting, setForgetting] = useState<Person | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const on = people.data?.remember ?? true;

  const columns: Column<Person>[] = [
    { id: "name", header: t("people.name"), kind: "name", cell: (p) => p.name },
    {
      id: "recordings",
      header: t("people.recordings"),
      label: t("people.recordings"),
      kind: "meta",
      cell: (p) => (
        <>
          {t("people.recordingsCount", { count: p.recordings })}
          {p.suggested > 0 && <span className="muted"> · {t("people.pending", { count: p.suggested })}</span>}
        </>
      ),
    },
    {
      id: "updated",
      header: t("people.updated"),
      label: t("people.updated"),
      kind: "meta",
      cell: (p) => formatDateTime(p.updateTime),
    },
    {
      id: "actions",
      header: t("people.actions"),
      kind: "actions",
      cell: (p) => (
        <>
          <Button size="sm" variant="ghost" onClick={() => setRenaming(p)} data-testid={`rename-${p.personId}`}>
            {t("people.rename")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setForgetting(p)} data-testid={`forget-${p.personId}`}>
            {t("people.forget")}
          </Button>
        </>
      ),
    },
  ];

  return (
    <section className="people" data-testid="people">
      <p className="muted people-intro">{t("people.intro")}</p>
      <label className="people-switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={on}
          checked={on}
          disabled={!people.data || remember.isPending}
          onChange={(e) => (e.target.checked ? remember.mutate(true) : setTurningOff(true))}
          data-testid="remember-switch"
        />
        <span>
          <strong>{t("people.remember")}</strong>
          <span className="muted"> {on ? t("people.rememberOn") : t("people.rememberOff")}</span>
        </span>
      </label>
      <DataTable
        rows={people.data?.list ?? []}
        rowId={(p) => p.personId}
        rowName={(p) => p.name}
        columns={columns}
        status={{ isPending: people.isPending, isError: people.isError, retry: () => void people.refetch() }}
        empty={<EmptyState text={t("people.empty")} />}
        testId="people-table"
        rowTestId={(id) => `person-${id}`}
        phoneLabels
      />
      <NameFormDialog
        open={renaming !== null}
        title={t("people.renameTitle")}
        label={t("people.renameLabel")}
        initial={renaming?.name ?? ""}
        min={1}
        max={SPEAKER_NAME_MAX}
        invalidText={t("people.renameInvalid")}
        taken={(v) => !NAME_PATTERN.test(v)}
        takenText={t("people.renameInvalid")}
        pending={rename.isPending}
        onSubmit={(name) => {
          if (!renaming) return;
          rename.mutate(
            { personId: renaming.personId, name },
            {
              onSuccess: () => {
                setRenaming(null);
                toast.success(t("people.renamed"));
              },
            },
          );
        }}
        onClose={() => setRenaming(null)}
      />
      <ConfirmDialog
        open={forgetting !== null}
        title={t("people.forgetTitle", { name: forgetting?.name ?? "" })}
        text={t("people.forgetText")}
        confirmLabel={t("people.forget")}
        danger
        pending={forget.isPending}
        onConfirm={() => {
          if (!forgetting) return;
          forget.mutate(forgetting.personId, {
            onSuccess: () => {
              setForgetting(null);
              toast.success(t("people.forgotten"));
            },
          });
        }}
        onClose={() => setForgetting(null)}
      />
      <ConfirmDialog
        open={turningOff}
        title={t("people.turnOffTitle")}
        text={t("people.turnOffText")}
        confirmLabel={t("people.turnOff")}
        danger
        pending={remember.isPending}
        onConfirm={() => remember.mutate(false, { onSuccess: () => setTurningOff(false) })}
        onClose={() => setTurningOff(false)}
      />
    </section>
  );
}
