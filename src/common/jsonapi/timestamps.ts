/** `created-at`/`updated-at` shape: `2024-08-13T23:06:42.523Z`. */
export function isoMillis(date: Date | null | undefined): string | null {
  if (!date) return null;
  return date instanceof Date ? date.toISOString() : new Date(date).toISOString();
}

/** `status-timestamps` shape: `2019-06-21T21:29:48+00:00`. */
export function isoSecondsOffset(date: Date | null | undefined): string | null {
  if (!date) return null;
  // toISOString always ends in `.sssZ`.
  const iso = date instanceof Date ? date.toISOString() : new Date(date).toISOString();
  return `${iso.slice(0, -5)}+00:00`;
}
