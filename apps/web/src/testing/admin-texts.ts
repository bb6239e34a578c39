import { i18n } from "@/lib/i18n.ts";
import { registerAdminTexts } from "@/locales/admin.ts";

/** Component tests of console pieces rendered without its route module: its texts, as that module adds them. */
registerAdminTexts(i18n);
