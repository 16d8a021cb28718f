/**
 * CSV cells as every download writes them (SDK event export, the audit log) and the
 * formula-injection guard Dev Lens applies to text from uploaded files (DECISIONS §7). Neutral:
 * imports nothing.
 */

/** Text that begins like a spreadsheet formula gets a leading apostrophe. */
export function safeCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * One RFC 4180 CSV cell. Text that starts like a formula gets safeCell's apostrophe; a cell with a
 * comma, quote or line break is quoted, quotes doubled. null is an empty cell and an empty string
 * is `""`, the distinction warehouse loaders (COPY … CSV) read back as NULL versus ''.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const text = safeCell(value);
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
