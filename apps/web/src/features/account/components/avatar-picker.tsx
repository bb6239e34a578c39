import { clsx } from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useUpdateProfile, useUploadAvatar } from "../api/update-profile.ts";
import { AVATARS, avatarFileProblem } from "../lib/profile-rules.ts";

/**
 * The avatar and 'change avatar': one of the built-in avatars the app ships, or a photo of the
 * user's own (checked here for type and size, and again by the server, which stores it).
 */
export function AvatarPicker({ photo, initial }: { photo: string; initial: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const update = useUpdateProfile();
  const upload = useUploadAvatar();
  const onFile = (file: File | undefined) => {
    if (!file) return;
    const problem = avatarFileProblem(file);
    if (problem) return void toast.error(t(`personal.${problem}`));
    upload.mutate(file, {
      onSuccess: () => {
        toast.success(t("personal.avatarSaved"));
        setOpen(false);
      },
    });
  };
  const [choice, setChoice] = useState(photo);
  return (
    <>
      <button
        type="button"
        className="profile-avatar"
        onClick={() => {
          setChoice(photo);
          setOpen(true);
        }}
        title={t("personal.changeAvatar")}
        data-testid="avatar-change"
      >
        <span className="sr-only">{t("personal.changeAvatar")}</span>
        {photo ? <img src={photo} alt="" data-testid="avatar-image" /> : <span aria-hidden>{initial}</span>}
        <span className="profile-avatar-edit" aria-hidden>
          ✎
        </span>
      </button>
      {open && (
        <Dialog open onOpenChange={setOpen} title={t("personal.chooseAvatar")}>
          <div className="avatar-grid">
            {AVATARS.map((src, i) => (
              <button
                key={src}
                type="button"
                aria-pressed={choice === src}
                aria-label={t("personal.avatarN", { n: i + 1 })}
                className={clsx("avatar-option", choice === src && "active")}
                onClick={() => setChoice(src)}
                data-testid={`avatar-option-${i + 1}`}
              >
                <img src={src} alt="" />
              </button>
            ))}
          </div>
          <label className="avatar-upload">
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              onChange={(e) => {
                onFile(e.target.files?.[0]);
                e.target.value = "";
              }}
              disabled={upload.isPending}
              data-testid="avatar-upload"
            />
            <span className="btn btn-secondary">{t("personal.uploadAvatar")}</span>
            <small>{t("personal.avatarUploadHint")}</small>
          </label>
          <div className="dialog-actions">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t("common.cancel")}
            </Button>
            <Button
              disabled={!choice || choice === photo || update.isPending}
              onClick={() =>
                update.mutate(
                  { userPhoto: choice },
                  {
                    onSuccess: () => {
                      toast.success(t("personal.avatarSaved"));
                      setOpen(false);
                    },
                  },
                )
              }
              data-testid="avatar-save"
            >
              {t("personal.save")}
            </Button>
          </div>
        </Dialog>
      )}
    </>
  );
}
