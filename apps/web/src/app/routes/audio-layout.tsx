import { Outlet } from "react-router-dom";
import { TabLinks } from "@/components/tab-links.tsx";
import { paths } from "@/config/paths.ts";

/** /audio: My records, Recycle bin and Search. */
export default function AudioLayout() {
  return (
    <>
      <TabLinks
        tabs={[
          { to: paths.audioList, title: "audioList" },
          { to: paths.recycleBin, title: "recycleBin" },
          { to: paths.search, title: "search" },
        ]}
      />
      <Outlet />
    </>
  );
}
