import * as Popover from "@radix-ui/react-popover";
import type { MenuItem } from "@yuelu/contracts";
import { clsx } from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { useMenus } from "../api/get-menus.ts";
import type { FolderFilter } from "../api/get-records.ts";
import { FolderCreateDialog } from "./folder-create-dialog.tsx";
import { FolderDeleteDialog } from "./folder-delete-dialog.tsx";
import { FolderRenameDialog } from "./folder-rename-dialog.tsx";
import "./folder-sidebar.css";

const same = (a: FolderFilter, b: FolderFilter) =>
  a.kind === b.kind && (a.kind !== "folder" || (b.kind === "folder" && a.menuId === b.menuId));

/** Folders (spec §3 Menu item): a filter for the list, and create / rename / delete. */
export function FolderSidebar({ value, onChange }: { value: FolderFilter; onChange: (f: FolderFilter) => void }) {
  const { t } = useTranslation();
  const menus = useMenus();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<MenuItem | null>(null);
  const [deleting, setDeleting] = useState<MenuItem | null>(null);

  const item = (filter: FolderFilter, label: string, key: string, menu?: MenuItem) => (
    <li key={key} className={clsx("folder", same(value, filter) && "active")}>
      <button
        type="button"
        className="folder-name"
        aria-current={same(value, filter) ? "true" : undefined}
        onClick={() => onChange(filter)}
      >
        {label}
      </button>
      {menu && (
        <Popover.Root>
          <Popover.Trigger className="folder-more" aria-label={t("folders.actions", { name: menu.menuName })}>
            ⋯
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content className="popover menu-popover" align="end" sideOffset={4}>
              <Popover.Close className="menu-item" onClick={() => setRenaming(menu)}>
                {t("folders.rename")}
              </Popover.Close>
              <Popover.Close className="menu-item danger" onClick={() => setDeleting(menu)}>
                {t("folders.delete")}
              </Popover.Close>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      )}
    </li>
  );

  return (
    <aside className="folders" aria-label={t("folders.title")}>
      <div className="folders-head">
        <strong>{t("folders.title")}</strong>
        <Button size="sm" variant="ghost" onClick={() => setCreating(true)} data-testid="folder-create">
          + {t("folders.create")}
        </Button>
      </div>
      <ul className="folder-list">
        {item({ kind: "all" }, t("folders.all"), "all")}
        {item({ kind: "ungrouped" }, t("folders.ungrouped"), "ungrouped")}
        {(menus.data ?? []).map((m) => item({ kind: "folder", menuId: m.menuId }, m.menuName, `menu-${m.menuId}`, m))}
      </ul>
      <FolderCreateDialog open={creating} onClose={() => setCreating(false)} />
      <FolderRenameDialog menu={renaming} onClose={() => setRenaming(null)} />
      <FolderDeleteDialog
        menu={deleting}
        onClose={() => setDeleting(null)}
        onDone={() => {
          if (deleting && same(value, { kind: "folder", menuId: deleting.menuId })) onChange({ kind: "all" });
        }}
      />
    </aside>
  );
}
