import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";

/** Copies `text` to the clipboard and says so on the button for a moment. */
export function CopyButton({ text, label, testId }: { text: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast.error(t("admin.act.copyFailed"));
    }
  };
  return (
    <Button size="sm" variant="secondary" onClick={() => void copy()} data-testid={testId} aria-live="polite">
      {copied ? t("admin.act.copied") : (label ?? t("admin.act.copy"))}
    </Button>
  );
}
