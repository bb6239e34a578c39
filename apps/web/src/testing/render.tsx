import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { AppProvider } from "../app/provider.tsx";
import { routes } from "../app/router.tsx";

/** Renders one component with the app's providers (i18n, the query client), outside any route. */
export function renderInApp(ui: ReactNode) {
  return render(<AppProvider>{ui}</AppProvider>);
}

/** Renders the real route table at `path`, as the browser would (memory history). */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { router, ...view };
}
