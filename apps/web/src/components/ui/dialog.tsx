import * as RadixDialog from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import "./dialog.css";

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  wide?: boolean;
  /** hide the × (dialogs that must be answered) */
  hideClose?: boolean;
  className?: string;
  /** an accessible description when the body has none */
  description?: string;
}

/** The one dialog shell: overlay, focus trap, Esc to close, a title and a close button. */
export function Dialog({ open, onOpenChange, title, children, wide, hideClose, className, description }: DialogProps) {
  const { t } = useTranslation();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={clsx("dialog-content", wide && "wide", className)}
          onInteractOutside={hideClose ? (e) => e.preventDefault() : undefined}
          onEscapeKeyDown={hideClose ? (e) => e.preventDefault() : undefined}
        >
          <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
          <RadixDialog.Description className="sr-only">{description ?? ""}</RadixDialog.Description>
          {!hideClose && (
            <RadixDialog.Close className="dialog-close" aria-label={t("common.close")}>
              ×
            </RadixDialog.Close>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
