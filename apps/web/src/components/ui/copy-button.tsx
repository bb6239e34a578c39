import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "./button.tsx";

/** Copies `text` to the clipboard and says so on the button for a moment. */
export function CopyButton({ text, label, testId }: { text: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast.error(t("common.copyFailed"));
    }
  };
  return (
    <Button size="sm" variant="secondary" onClick={() => void copy()} data-testid={testId} aria-live="polite">
      {copied ? t("common.copied") : (label ?? t("common.copy"))}
    </Button>
  );
}
