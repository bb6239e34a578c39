import { useQueryClient } from "@tanstack/react-query";
import { VOICE_NAME_MAX } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import { queryKeys } from "@/lib/query-keys.ts";
import { useDeleteVoice, useRenameVoice } from "../api/my-voices.ts";
import { voicePaths } from "../api/paths.ts";
import type { MyVoice } from "../api/types.ts";
import { useUpload } from "../hooks/use-upload.ts";
import { newRequestId } from "../lib/request-id.ts";
import { type Sample, SampleSource } from "./sample-source.tsx";
import { UploadProgress } from "./upload-progress.tsx";

export function VoiceRenameDialog({ voice, onClose }: { voice: MyVoice | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameVoice();
  return (
    <NameFormDialog
      open={voice !== null}
      title={t("myVoice.renameTitle")}
      label={t("myVoice.name")}
      initial={voice?.name ?? ""}
      min={1}
      max={VOICE_NAME_MAX}
      invalidText={t("myVoice.nameInvalid", { max: VOICE_NAME_MAX })}
      pending={rename.isPending}
      onClose={onClose}
      onSubmit={(name) => {
        if (!voice || name === voice.name) return onClose();
        rename.mutate(
          { voiceId: voice.voiceId, name },
          {
            onSuccess: () => {
              toast.success(t("voiceKit.renamed"));
              onClose();
            },
          },
        );
      }}
    />
  );
}

/** Deleting a voice removes its samples and preview for good: asked first. */
export function VoiceDeleteDialog({
  voice,
  onClose,
  onDeleted,
}: {
  voice: MyVoice | null;
  onClose: () => void;
  onDeleted?: (voiceId: number) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteVoice();
  return (
    <ConfirmDialog
      open={voice !== null}
      title={t("myVoice.deleteTitle")}
      text={t("myVoice.deleteText", { name: voice?.name ?? "" })}
      confirmLabel={t("voiceKit.delete")}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        voice &&
        remove.mutate(voice.voiceId, {
          onSuccess: () => {
            toast.success(t("voiceKit.deleted"));
            onDeleted?.(voice.voiceId);
            onClose();
          },
        })
      }
    />
  );
}

/** Re-training: a new sample for the same voice (recorded or a file), sent with its progress. */
export function VoiceRetrainDialog({ voice, onClose }: { voice: MyVoice | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const upload = useUpload<MyVoice>(voicePaths.retrainVoice);
  const [sample, setSample] = useState<Sample | null>(null);

  const close = () => {
    upload.cancel();
    upload.reset();
    setSample(null);
    onClose();
  };
  const submit = async () => {
    if (!voice || !sample) return;
    const updated = await upload.start({
      fields: { voiceId: voice.voiceId, requestId: newRequestId() },
      file: { field: "file", blob: sample.file, name: sample.file.name },
    });
    if (!updated) return;
    void client.invalidateQueries({ queryKey: queryKeys.voice.myVoices });
    void client.invalidateQueries({ queryKey: queryKeys.voice.quota });
    toast.success(t("myVoice.retrainStarted", { name: updated.name }));
    setSample(null);
    onClose();
  };
  return (
    <Dialog
      open={voice !== null}
      onOpenChange={(o) => !o && close()}
      title={t("myVoice.retrainTitle", { name: voice?.name ?? "" })}
      wide
    >
      {voice && (
        <div className="vk-retrain" data-testid="retrain-dialog">
          <p className="muted">{t("myVoice.retrainText")}</p>
          <SampleSource language={voice.language} onSample={setSample} />
          {upload.state.phase === "uploading" && (
            <UploadProgress loaded={upload.state.loaded} total={upload.state.total} onCancel={upload.cancel} />
          )}
          {upload.state.phase === "failed" && (
            <p className="error-text" role="alert" data-testid="retrain-problem">
              {upload.state.message}
            </p>
          )}
          <div className="dialog-actions">
            <Button variant="secondary" onClick={close}>
              {t("common.cancel")}
            </Button>
            <Button onClick={() => void submit()} disabled={!sample || upload.busy} data-testid="retrain-submit">
              {upload.busy ? t("voiceKit.sending") : t("myVoice.retrainSubmit")}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
