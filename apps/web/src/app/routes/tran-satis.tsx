import { useSearchParams } from "react-router-dom";
import { StandalonePage } from "@/components/standalone-page.tsx";
import { SatisfactionForm } from "@/features/satisfaction/components/satisfaction-form.tsx";

/** A positive record id from the query, or undefined. */
function fileIdOf(raw: string | null): number | undefined {
  if (!raw || !/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 && id <= 2_147_483_647 ? id : undefined;
}

/** Spec §2 /tranSatis: a satisfaction page outside the home layout; `fileId` names the record rated. */
export default function TranSatisPage() {
  const [params] = useSearchParams();
  return (
    <StandalonePage>
      <SatisfactionForm fileId={fileIdOf(params.get("fileId"))} />
    </StandalonePage>
  );
}
