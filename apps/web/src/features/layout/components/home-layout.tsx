import { Suspense } from "react";
import { Outlet } from "react-router-dom";
import { Spinner } from "@/components/ui/states.tsx";
import { AppHeader } from "./app-header.tsx";
import { SideNav } from "./side-nav.tsx";
import "./home-layout.css";

/** Spec §2 home layout: header, navigation, and the child route. */
export default function HomeLayout() {
  return (
    <div className="home">
      <AppHeader />
      <div className="home-body">
        <SideNav />
        <main className="home-main">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
