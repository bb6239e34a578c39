/**
 * Who a field names: an 11-digit mobile number starting with 1 is a phone, other digits a user id;
 * anything else names no one.
 */
export function parseUserKey(text: string): { phone: string } | { userId: number } | null {
  const value = text.trim();
  if (/^1\d{10}$/.test(value)) return { phone: value };
  if (/^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= 2_147_483_647)
    return { userId: Number(value) };
  return null;
}
