import * as Popover from "@radix-ui/react-popover";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";
import { paths } from "@/config/paths.ts";
import { rewardDialog, shopDialog } from "@/lib/app-dialogs.ts";
import "./shop-header.css";

const NOTES = ["shop.note1", "shop.note2", "shop.note3", "shop.note4", "shop.note5"];
const COIN_DETAIL = "coinDetail";

/**
 * The shop's top line: the balance with its explanation popover, the shop-note popover, 'earn
 * beans' (the reward dialog) and 'view details' (spec §2: closes the shop and opens
 * /personalInfo?menu=coinDetail; nothing happens when that is where the user already is).
 */
export function ShopHeader({ balance }: { balance: number | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const onViewDetails = () => {
    const here =
      location.pathname === paths.personalInfo && new URLSearchParams(location.search).get("menu") === COIN_DETAIL;
    if (here) return;
    shopDialog.close();
    navigate(`${paths.personalInfo}?menu=${COIN_DETAIL}`);
  };
  return (
    <div className="shop-head">
      <div className="shop-balance">
        <span className="shop-bean" aria-hidden />
        <span className="shop-balance-label">{t("shop.balance")}</span>
        <strong className="shop-balance-value" data-testid="shop-balance">
          {balance ?? "–"}
        </strong>
        <Popover.Root>
          <Popover.Trigger className="shop-help" aria-label={t("shop.balanceHelpLabel")} data-testid="balance-help">
            ?
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content className="popover shop-popover" sideOffset={6} data-testid="balance-popover">
              <strong>{t("shop.balanceHelpTitle")}</strong>
              <p>{t("shop.balanceHelp")}</p>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      </div>
      <div className="shop-links">
        <Popover.Root>
          <Popover.Trigger className="shop-link" data-testid="shop-notes">
            {t("shop.notes")}
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content className="popover shop-popover" sideOffset={6} align="end" data-testid="notes-popover">
              <strong>{t("shop.notes")}</strong>
              <ol className="shop-notes">
                {NOTES.map((key) => (
                  <li key={key}>{t(key)}</li>
                ))}
              </ol>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
        <button
          type="button"
          className="shop-link"
          onClick={() => {
            shopDialog.close();
            rewardDialog.open();
          }}
          data-testid="shop-earn"
        >
          {t("shop.earnMore")}
        </button>
        <button type="button" className="shop-link" onClick={onViewDetails} data-testid="shop-details">
          {t("shop.viewDetails")} ›
        </button>
      </div>
    </div>
  );
}
