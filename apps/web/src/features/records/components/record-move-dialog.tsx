import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useMenus } from "../api/get-menus.ts";
import { useMoveRecords } from "../api/move-records.ts";

/** Move one or more records into a folder, or out of any ("0"). */
export function RecordMoveDialog({
  records,
  onClose,
  onDone,
}: {
  records: { fileId: number; menuId: string | null }[] | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const menus = useMenus();
  const move = useMoveRecords();
  const [menuId, setMenuId] = useState("0");
  useEffect(() => {
    if (records) setMenuId(records.length === 1 ? (records[0]?.menuId ?? "0") : "0");
  }, [records]);

  const confirm = () => {
    if (!records) return;
    move.mutate(
      { fileIds: records.map((r) => r.fileId), menuId },
      {
        onSuccess: () => {
          toast.success(t("records.moved"));
          onDone?.();
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open={records !== null} onOpenChange={(o) => !o && onClose()} title={t("records.moveTitle")}>
      <label className="field">
        <span className="field-label">{t("records.moveTarget")}</span>
        <select className="input select" value={menuId} onChange={(e) => setMenuId(e.target.value)}>
          <option value="0">{t("records.noFolder")}</option>
          {(menus.data ?? []).map((m) => (
            <option key={m.menuId} value={m.menuId}>
              {m.menuName}
            </option>
          ))}
        </select>
      </label>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button onClick={confirm} disabled={move.isPending} data-testid="confirm">
          {t("common.confirm")}
        </Button>
      </div>
    </Dialog>
  );
}
