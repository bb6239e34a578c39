import { clearAllStorage } from "./storage.ts";

/** Spec §4: logout clears every stored key and goes to the account service's logout, back to this page. */
export function logout() {
  clearAllStorage();
  const redir = window.location.pathname + window.location.search;
  window.location.assign(`/account/logout?redir=${encodeURIComponent(redir)}`);
}
