import { RequireLogin } from "@/components/require-login.tsx";
import { AppHeader } from "@/features/layout/components/app-header.tsx";
import { HotWordsEditor } from "@/features/records/components/hot-words-editor.tsx";
import { RecordTranscribeDialog } from "@/features/records/components/record-transcribe-dialog.tsx";
import { DetailView } from "@/features/transcript/components/detail-view.tsx";
// the layout's own rules (.home, .home-main's padding): a page opened here first has no other copy
import "@/features/layout/components/home-layout.css";
import "./detail.css";

/**
 * Spec §2 /detail (fileId, timeLen, fileName): the transcript view, outside the home layout. The
 * records feature's transcribe dialog and hot words are handed to the transcript feature here.
 */
export default function DetailPage() {
  return (
    <div className="home">
      <AppHeader />
      <main className="home-main detail-main">
        <RequireLogin>
          <DetailView
            transcribeDialog={(record, onClose) => (
              <RecordTranscribeDialog records={record ? [record] : null} onClose={onClose} />
            )}
            hotWords={<HotWordsEditor />}
          />
        </RequireLogin>
      </main>
    </div>
  );
}
