import { MY_VOICE_MAX_COUNT } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { isTaskRunning } from "@/lib/task-phase.ts";
import { useVoiceCapabilities } from "../api/get-capabilities.ts";
import { useVoiceQuota } from "../api/get-quota.ts";
import { useMyVoices, useVoiceProgress } from "../api/my-voices.ts";
import type { MyVoice } from "../api/types.ts";
import { MethodNote } from "./method-note.tsx";
import { MyVoiceCard } from "./my-voice-card.tsx";
import { NewVoicePanel } from "./new-voice-panel.tsx";
import { VoiceDeleteDialog, VoiceRenameDialog, VoiceRetrainDialog } from "./voice-dialogs.tsx";
import { isVoiceQuotaUsed, VoiceQuotaLine } from "./voice-quota.tsx";
import "./voice.css";

/**
 * /myVoice: my voices (each with its status, measured profile, preview and sample), and a new one
 * from a guided recording or a file. Says plainly how a voice is made here: voice matching, unless
 * the install has a clone engine.
 */
export function MyVoiceView() {
  const { t } = useTranslation();
  const voices = useMyVoices();
  const quota = useVoiceQuota();
  const capabilities = useVoiceCapabilities();
  const method = capabilities.data?.myVoiceMethod ?? "match";
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<MyVoice | null>(null);
  const [retraining, setRetraining] = useState<MyVoice | null>(null);
  const [deleting, setDeleting] = useState<MyVoice | null>(null);
  const list = voices.data?.list ?? [];
  const progress = useVoiceProgress(list.filter((v) => isTaskRunning(v.status)).map((v) => v.voiceId));
  const full = list.length >= MY_VOICE_MAX_COUNT;
  const quotaUsed = isVoiceQuotaUsed(quota.data);
  const showNew = creating || (voices.isSuccess && list.length === 0);

  return (
    <div className="vk-page" data-testid="my-voice-page">
      <div className="vk-page-top">
        <MethodNote method={method} available={capabilities.data?.available} />
        <aside className="vk-side">
          <VoiceQuotaLine quota={quota.data} />
          <span className="muted" data-testid="voice-count">
            {t("myVoice.count", { n: list.length, max: MY_VOICE_MAX_COUNT })}
          </span>
        </aside>
      </div>
      {showNew ? (
        <NewVoicePanel
          blocked={quotaUsed || full}
          onCreated={() => setCreating(false)}
          onCancel={list.length > 0 ? () => setCreating(false) : undefined}
        />
      ) : null}
      {full && showNew && (
        <p className="error-text" role="alert">
          {t("myVoice.full", { max: MY_VOICE_MAX_COUNT })}
        </p>
      )}
      <section className="vk-mine" aria-labelledby="my-voices-title">
        <div className="vk-section-head">
          <h2 id="my-voices-title" className="section-title">
            {t("myVoice.listTitle")}
          </h2>
          {!showNew && voices.isSuccess && (
            <Button onClick={() => setCreating(true)} disabled={full} data-testid="new-voice-open">
              + {t("myVoice.new")}
            </Button>
          )}
        </div>
        {full && !showNew && <p className="muted">{t("myVoice.full", { max: MY_VOICE_MAX_COUNT })}</p>}
        {voices.isPending ? (
          <Spinner />
        ) : voices.isError ? (
          <ErrorState onRetry={() => voices.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState icon="♪" text={t("myVoice.empty")} />
        ) : (
          <ul className="vk-card-list">
            {list.map((voice) => (
              <MyVoiceCard
                key={voice.voiceId}
                voice={voice}
                progress={progress.data?.find((p) => p.id === voice.voiceId)}
                onRename={() => setRenaming(voice)}
                onRetrain={() => setRetraining(voice)}
                onDelete={() => setDeleting(voice)}
              />
            ))}
          </ul>
        )}
      </section>
      <VoiceRenameDialog voice={renaming} onClose={() => setRenaming(null)} />
      <VoiceRetrainDialog voice={retraining} onClose={() => setRetraining(null)} />
      <VoiceDeleteDialog voice={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
