/** HTML escaping: every string that reaches report.html passes through here. */
import { safeText } from './report-view.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values, after removing control characters. */
export function escapeHtml(text: string): string {
  return safeText(text).replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
