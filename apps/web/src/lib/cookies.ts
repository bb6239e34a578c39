/** The display-hint cookies the account service sets (ARCHITECTURE §3); the server never trusts them. */
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) {
      try {
        return decodeURIComponent(v.join("="));
      } catch {
        return v.join("=");
      }
    }
  }
  return undefined;
}

/** Clears the readable cookies (the httpOnly sid can only be cleared by the server's logout). */
export function clearSessionCookies(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: expiring two plain cookies needs no cookie-store API
  for (const name of ["userid", "name"]) document.cookie = `${name}=; Max-Age=0; path=/`;
}
