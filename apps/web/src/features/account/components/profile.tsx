import { NICKNAME_MAX } from "@yuelu/contracts/constants";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useUserInfo } from "@/lib/account.ts";
import { formatDateTime } from "@/lib/format.ts";
import { useSession } from "@/lib/session.ts";
import { displayNickname } from "@/utils/nickname.ts";
import { useUpdateProfile } from "../api/update-profile.ts";
import { nicknameProblem } from "../lib/profile-rules.ts";
import { AvatarPicker } from "./avatar-picker.tsx";
import "./profile.css";

/** The personal centre's profile: the avatar and the nickname (both editable), phone, invite code, joined. */
export function Profile() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const info = useUserInfo();
  if (info.isPending) return <Spinner />;
  if (info.isError) return <ErrorState onRetry={() => void info.refetch()} />;
  const u = info.data;
  const name = displayNickname(u.nickName || session.userName, i18n.language);
  const rows: [string, string][] = [
    [t("personal.phone"), u.phoneNumber],
    [t("personal.inviteCode"), u.inviteCode || "–"],
    [t("personal.registeredAt"), formatDateTime(u.createTime)],
  ];
  return (
    <div className="profile-card" data-testid="profile">
      <div className="profile-head">
        <AvatarPicker photo={u.userPhoto} initial={name.slice(0, 1).toUpperCase()} />
        <NicknameEditor name={name} />
      </div>
      <dl className="profile-list">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The nickname, and its inline editor (1–20 characters). */
function NicknameEditor({ name }: { name: string }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = nicknameProblem(value);
    if (problem) {
      setError(
        problem === "empty" ? t("personal.nicknameEmpty") : t("personal.nicknameTooLong", { max: NICKNAME_MAX }),
      );
      return;
    }
    if (value.trim() === name) {
      setEditing(false);
      return;
    }
    update.mutate(
      { nickName: value.trim() },
      {
        onSuccess: () => {
          toast.success(t("personal.nicknameSaved"));
          setEditing(false);
        },
      },
    );
  };

  if (!editing) {
    return (
      <div className="profile-name">
        <strong data-testid="profile-nickname">{name}</strong>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setValue(name);
            setError(null);
            setEditing(true);
          }}
          data-testid="nickname-edit"
        >
          {t("personal.edit")}
        </Button>
      </div>
    );
  }
  return (
    <form className="profile-name-form" onSubmit={onSubmit} noValidate>
      <label className="sr-only" htmlFor="nickname-input">
        {t("personal.nickName")}
      </label>
      <input
        id="nickname-input"
        className="input"
        value={value}
        maxLength={NICKNAME_MAX + 10}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        aria-invalid={error ? true : undefined}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit it
        autoFocus
        data-testid="nickname-input"
      />
      <Button type="submit" size="sm" disabled={update.isPending} data-testid="nickname-save">
        {t("personal.save")}
      </Button>
      <Button size="sm" variant="secondary" onClick={() => setEditing(false)}>
        {t("common.cancel")}
      </Button>
      {error && (
        <p className="error-text profile-name-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
