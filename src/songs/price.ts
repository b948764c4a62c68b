/** Display text of a price such as `$1.29`; null for a missing, negative (iTunes: not for sale) or unknown-currency price. */
export function formatPrice(amount: unknown, currency: unknown): string | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return null;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return null;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return null;
  }
}
