/**
 * The console's one way to write markup: `html` escapes every interpolated value unless it is itself
 * `SafeHtml` (the result of another `html` template, or `trustedHtml` for markup we produced ourselves,
 * such as rendered Markdown). Pages never concatenate strings into markup, so user data cannot inject tags.
 */
export class SafeHtml {
  constructor(private readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/** What a template may interpolate: text (escaped), markup, numbers, nothing, or lists of these. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character]!);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  // false/null/undefined render nothing, so `${condition && html`...`}` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(markup);
}

/** Markup the gateway produced itself (never user input): inserted as is. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
