import { Toaster as SonnerToaster } from "sonner";
import "./toaster.css";

/** The app's toasts (sonner): top centre, rich colours at AA contrast (toaster.css), closable. */
export function Toaster() {
  return <SonnerToaster position="top-center" richColors closeButton />;
}
