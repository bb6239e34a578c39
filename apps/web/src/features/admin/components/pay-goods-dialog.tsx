import type { AdminPayGoods, AdminPayGoodsEdit } from "@yuelu/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useSavePayGoods } from "../api/catalogue.ts";
import { changedOnly } from "../lib/changes.ts";
import { intIn, positiveInt } from "../lib/numbers.ts";
import { CheckField, NumberField, TextField } from "./form-fields.tsx";
import { YuanInput } from "./yuan-input.tsx";

/**
 * Creates or edits a membership plan (goodsType 1) or a duration card (0). Prices are typed in yuan
 * and sent as integer fen; an edit sends only what changed (PATCH).
 */
export function PayGoodsDialog({
  goodsType,
  goods,
  open,
  onClose,
}: {
  goodsType: 0 | 1;
  /** the goods to edit; null to create one */
  goods: AdminPayGoods | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const title = goods
    ? t("admin.catalogue.editGoods", { id: goods.goodsId })
    : t(goodsType === 1 ? "admin.catalogue.newPlan" : "admin.catalogue.newCard");
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={title} wide>
      {open && <PayGoodsForm goodsType={goodsType} goods={goods} onDone={onClose} />}
    </Dialog>
  );
}

function PayGoodsForm({
  goodsType,
  goods,
  onDone,
}: {
  goodsType: 0 | 1;
  goods: AdminPayGoods | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const save = useSavePayGoods();
  const [goodsId, setGoodsId] = useState("");
  const [name, setName] = useState(goods?.goodsName ?? "");
  const [nameEn, setNameEn] = useState(goods?.goodsNameEn ?? "");
  const [priceFen, setPriceFen] = useState<number | null>(goods?.priceFen ?? null);
  const [originalFen, setOriginalFen] = useState<number | null>(goods?.originalPriceFen ?? null);
  const [memberDays, setMemberDays] = useState(String(goods?.memberDays || ""));
  const [minutes, setMinutes] = useState(goods?.duration ? String(Math.round(goods.duration / 60)) : "");
  const [showSaved, setShowSaved] = useState(goods?.showSaved ?? false);
  const [inShop, setInShop] = useState(goods?.inShop ?? false);
  const [sort, setSort] = useState(String(goods?.sort ?? 0));
  const [enabled, setEnabled] = useState(goods?.enabled ?? true);
  const [tried, setTried] = useState(false);

  const plan = goodsType === 1;
  const idValue = goods ? goods.goodsId : positiveInt(goodsId, 2_147_483_647);
  const daysValue = plan ? positiveInt(memberDays, 3650) : 0;
  const minutesValue = plan ? 0 : positiveInt(minutes, 600_000);
  const sortValue = intIn(sort, -100_000, 100_000);
  const originalBelow = priceFen !== null && originalFen !== null && originalFen < priceFen;
  const valid =
    idValue !== null &&
    name.trim() !== "" &&
    nameEn.trim() !== "" &&
    priceFen !== null &&
    priceFen > 0 &&
    originalFen !== null &&
    !originalBelow &&
    daysValue !== null &&
    minutesValue !== null &&
    sortValue !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!valid || idValue === null || priceFen === null || originalFen === null) return;
    const fields = {
      goodsName: name.trim(),
      goodsNameEn: nameEn.trim(),
      priceFen,
      originalPriceFen: originalFen,
      goodsType,
      duration: (minutesValue ?? 0) * 60,
      memberDays: daysValue ?? 0,
      showSaved,
      inShop,
      sort: sortValue ?? 0,
      enabled,
    };
    const done = {
      onSuccess: () => {
        toast.success(t("admin.act.saved"));
        onDone();
      },
    };
    if (goods) {
      const edit: AdminPayGoodsEdit = changedOnly(goods, fields);
      if (Object.keys(edit).length === 0) {
        onDone();
        return;
      }
      save.mutate({ goodsId: goods.goodsId, edit }, done);
    } else {
      save.mutate({ create: { ...fields, goodsId: idValue } }, done);
    }
  };

  return (
    <form className="admin-form" onSubmit={submit} noValidate data-testid="pay-goods-form">
      {!goods && (
        <NumberField
          label={t("admin.catalogue.goodsId")}
          hint={t("admin.catalogue.goodsIdHint")}
          value={goodsId}
          onChange={setGoodsId}
          invalid={tried && idValue === null}
          testId="goods-id"
        />
      )}
      <div className="admin-form-row">
        <TextField
          label={t("admin.catalogue.nameZh")}
          value={name}
          onChange={setName}
          maxLength={60}
          invalid={tried && !name.trim()}
          testId="goods-name"
        />
        <TextField
          label={t("admin.catalogue.nameEn")}
          value={nameEn}
          onChange={setNameEn}
          maxLength={60}
          invalid={tried && !nameEn.trim()}
          testId="goods-name-en"
        />
      </div>
      <div className="admin-form-row">
        <YuanInput
          label={t("admin.catalogue.priceYuan")}
          initialFen={priceFen}
          onFenChange={setPriceFen}
          testId="goods-price"
        />
        <YuanInput
          label={t("admin.catalogue.originalPriceYuan")}
          initialFen={originalFen}
          onFenChange={setOriginalFen}
          testId="goods-original-price"
        />
      </div>
      {originalBelow && (
        <p className="error-text" role="alert">
          {t("admin.catalogue.originalBelowPrice")}
        </p>
      )}
      <p className="field-hint" id={`${id}-note`}>
        {t("admin.catalogue.priceNote")}
      </p>
      <div className="admin-form-row">
        {plan ? (
          <NumberField
            label={t("admin.catalogue.memberDays")}
            value={memberDays}
            onChange={setMemberDays}
            invalid={tried && daysValue === null}
            hint={tried && daysValue === null ? t("admin.catalogue.positive") : undefined}
            testId="goods-member-days"
          />
        ) : (
          <NumberField
            label={t("admin.catalogue.duration")}
            value={minutes}
            onChange={setMinutes}
            invalid={tried && minutesValue === null}
            hint={tried && minutesValue === null ? t("admin.catalogue.positive") : undefined}
            testId="goods-minutes"
          />
        )}
        <NumberField
          label={t("admin.field.sort")}
          value={sort}
          onChange={setSort}
          invalid={tried && sortValue === null}
          hint={t("admin.catalogue.sortHint")}
          allowNegative
        />
      </div>
      <CheckField label={t("admin.catalogue.showSaved")} checked={showSaved} onChange={setShowSaved} />
      <CheckField label={t("admin.catalogue.inShop")} checked={inShop} onChange={setInShop} />
      <CheckField label={t("admin.catalogue.enabledLabel")} checked={enabled} onChange={setEnabled} />
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onDone}>
          {t("admin.act.cancel")}
        </Button>
        <Button type="submit" disabled={save.isPending} data-testid="goods-save">
          {save.isPending ? t("admin.act.saving") : t("admin.act.save")}
        </Button>
      </div>
    </form>
  );
}
