import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router-dom";
import { AppProvider } from "./app/provider.tsx";
import { createRouter } from "./app/router.tsx";
import { initI18n } from "./lib/i18n.ts";
// Tokens and reset first; each component brings its own stylesheet after these.
import "./styles/global.css";

initI18n();
const router = createRouter();
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
