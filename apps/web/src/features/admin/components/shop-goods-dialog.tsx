import type { AdminShopGoods, AdminShopGoodsEdit } from "@yuelu/contracts";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useSaveShopGoods } from "../api/catalogue.ts";
import { changedOnly } from "../lib/changes.ts";
import { intIn, positiveInt } from "../lib/numbers.ts";
import { CheckField, NumberField, TextField } from "./form-fields.tsx";

const DAY = 86_400;
const PICTURE = /^(https?:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)?$/;

/** Creates or edits what the bean shop sells: a time card of N minutes for beans. */
export function ShopGoodsDialog({
  goods,
  open,
  onClose,
}: {
  goods: AdminShopGoods | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={goods ? t("admin.catalogue.editGoods", { id: goods.goodsId }) : t("admin.catalogue.newShop")}
      wide
    >
      {open && <ShopGoodsForm goods={goods} onDone={onClose} />}
    </Dialog>
  );
}

function ShopGoodsForm({ goods, onDone }: { goods: AdminShopGoods | null; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveShopGoods();
  const [goodsId, setGoodsId] = useState("");
  const [name, setName] = useState(goods?.goodsName ?? "");
  const [nameEn, setNameEn] = useState(goods?.goodsNameEn ?? "");
  const [intro, setIntro] = useState(goods?.goodsIntroduce ?? "");
  const [introEn, setIntroEn] = useState(goods?.goodsIntroduceEn ?? "");
  const [picture, setPicture] = useState(goods?.goodsPicPath ?? "");
  const [minutes, setMinutes] = useState(goods ? String(Math.round(goods.duration / 60)) : "");
  const [validDays, setValidDays] = useState(String(goods ? Math.round(goods.effectiveTime / DAY) : 90));
  const [originalCoin, setOriginalCoin] = useState(String(goods?.originalCoin ?? ""));
  const [exchangeCoin, setExchangeCoin] = useState(String(goods?.exchangeCoin ?? ""));
  const [discount, setDiscount] = useState(goods?.discount ?? false);
  const [sort, setSort] = useState(String(goods?.sort ?? 0));
  const [enabled, setEnabled] = useState(goods?.enabled ?? true);
  const [tried, setTried] = useState(false);

  const idValue = goods ? goods.goodsId : positiveInt(goodsId, 2_147_483_647);
  const minutesValue = positiveInt(minutes, 600_000);
  const daysValue = positiveInt(validDays, 3650);
  const originalValue = positiveInt(originalCoin, 1_000_000);
  const exchangeValue = positiveInt(exchangeCoin, 1_000_000);
  const sortValue = intIn(sort, -100_000, 100_000);
  const exchangeAbove = originalValue !== null && exchangeValue !== null && exchangeValue > originalValue;
  const pictureOk = PICTURE.test(picture.trim());
  const valid =
    idValue !== null &&
    name.trim() !== "" &&
    nameEn.trim() !== "" &&
    minutesValue !== null &&
    daysValue !== null &&
    originalValue !== null &&
    exchangeValue !== null &&
    !exchangeAbove &&
    sortValue !== null &&
    pictureOk;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!valid || idValue === null || minutesValue === null || daysValue === null) return;
    const fields = {
      goodsName: name.trim(),
      goodsNameEn: nameEn.trim(),
      goodsIntroduce: intro.trim(),
      goodsIntroduceEn: introEn.trim(),
      goodsPicPath: picture.trim(),
      duration: minutesValue * 60,
      effectiveTime: daysValue * DAY,
      originalCoin: originalValue ?? 0,
      exchangeCoin: exchangeValue ?? 0,
      discount,
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
      const edit: AdminShopGoodsEdit = changedOnly(goods, fields);
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
    <form className="admin-form" onSubmit={submit} noValidate data-testid="shop-goods-form">
      {!goods && (
        <NumberField
          label={t("admin.catalogue.goodsId")}
          hint={t("admin.catalogue.goodsIdHint")}
          value={goodsId}
          onChange={setGoodsId}
          invalid={tried && idValue === null}
        />
      )}
      <div className="admin-form-row">
        <TextField
          label={t("admin.catalogue.nameZh")}
          value={name}
          onChange={setName}
          maxLength={60}
          invalid={tried && !name.trim()}
        />
        <TextField
          label={t("admin.catalogue.nameEn")}
          value={nameEn}
          onChange={setNameEn}
          maxLength={60}
          invalid={tried && !nameEn.trim()}
        />
      </div>
      <div className="admin-form-row">
        <TextField label={t("admin.catalogue.introZh")} value={intro} onChange={setIntro} maxLength={200} />
        <TextField label={t("admin.catalogue.introEn")} value={introEn} onChange={setIntroEn} maxLength={200} />
      </div>
      <TextField
        label={t("admin.catalogue.picture")}
        value={picture}
        onChange={setPicture}
        maxLength={300}
        invalid={tried && !pictureOk}
        hint={t("admin.catalogue.pictureHint")}
      />
      <div className="admin-form-row">
        <NumberField
          label={t("admin.catalogue.duration")}
          value={minutes}
          onChange={setMinutes}
          invalid={tried && minutesValue === null}
        />
        <NumberField
          label={t("admin.catalogue.validDays")}
          value={validDays}
          onChange={setValidDays}
          invalid={tried && daysValue === null}
        />
      </div>
      <div className="admin-form-row">
        <NumberField
          label={t("admin.catalogue.originalCoin")}
          value={originalCoin}
          onChange={setOriginalCoin}
          invalid={tried && originalValue === null}
        />
        <NumberField
          label={t("admin.catalogue.exchangeCoin")}
          value={exchangeCoin}
          onChange={setExchangeCoin}
          invalid={(tried && exchangeValue === null) || exchangeAbove}
          hint={exchangeAbove ? t("admin.catalogue.exchangeAboveOriginal") : undefined}
        />
        <NumberField
          label={t("admin.field.sort")}
          value={sort}
          onChange={setSort}
          invalid={tried && sortValue === null}
          hint={t("admin.catalogue.sortHint")}
          allowNegative
        />
      </div>
      <CheckField label={t("admin.catalogue.discount")} checked={discount} onChange={setDiscount} />
      <CheckField label={t("admin.catalogue.enabledLabel")} checked={enabled} onChange={setEnabled} />
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onDone}>
          {t("admin.act.cancel")}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t("admin.act.saving") : t("admin.act.save")}
        </Button>
      </div>
    </form>
  );
}
