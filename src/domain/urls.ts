/**
 * A URL that may become a link: http or https only, so a profile's `network_url` of
 * `javascript:…` or `data:…` (from a provider or an import) is shown as no link at all. Shared by
 * the share page and the web app.
 */
export function linkableUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
