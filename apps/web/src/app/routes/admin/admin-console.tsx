import { lazy, Suspense } from "react";
import { Navigate, type RouteObject, useRoutes } from "react-router-dom";
import { Spinner } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { AdminGate } from "@/features/admin/components/admin-gate.tsx";
import { AdminLayout } from "@/features/admin/components/admin-layout.tsx";
import { i18n } from "@/lib/i18n.ts";
import { registerAdminTexts } from "@/locales/admin.ts";

// The console's texts come with this chunk, before its first render.
registerAdminTexts(i18n);

const OverviewPage = lazy(() => import("./overview.tsx"));
const CataloguePage = lazy(() => import("./catalogue.tsx"));
const GiftsPage = lazy(() => import("./gifts.tsx"));
const MessagesPage = lazy(() => import("./messages.tsx"));
const ContentPage = lazy(() => import("./content.tsx"));
const UsersPage = lazy(() => import("./users.tsx"));
const UserPage = lazy(() => import("./user.tsx"));
const OrdersPage = lazy(() => import("./orders.tsx"));
const WebhooksPage = lazy(() => import("./webhooks.tsx"));
const SystemPage = lazy(() => import("./system.tsx"));
const AuditPage = lazy(() => import("./audit.tsx"));

/** The areas, below /admin (objects for useRoutes: <Routes> would bring its JSX reader into the app's entry). */
const areas: RouteObject[] = [
  { index: true, element: <OverviewPage /> },
  { path: "catalogue", element: <CataloguePage /> },
  { path: "gifts", element: <GiftsPage /> },
  { path: "messages", element: <MessagesPage /> },
  { path: "content", element: <ContentPage /> },
  { path: "users", element: <UsersPage /> },
  { path: "users/:userId", element: <UserPage /> },
  { path: "orders", element: <OrdersPage /> },
  { path: "webhooks", element: <WebhooksPage /> },
  { path: "system", element: <SystemPage /> },
  { path: "audit", element: <AuditPage /> },
  { path: "*", element: <Navigate to={paths.admin} replace /> },
];

/**
 * /admin/*: the operator console (docs/admin.md). One lazy route of the app's table; its areas are
 * routes of their own below it, each a chunk of its own, behind the access gate and in its frame.
 */
export default function AdminConsole() {
  return (
    <AdminGate>
      {(me) => (
        <AdminLayout me={me}>
          <Areas />
        </AdminLayout>
      )}
    </AdminGate>
  );
}

function Areas() {
  return <Suspense fallback={<Spinner />}>{useRoutes(areas)}</Suspense>;
}
