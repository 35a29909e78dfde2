/**
 * What a PromQL query refers to: the metric names of its selectors with their label matchers, the labels of its
 * `by`/`without`/`on`/`ignoring`/`group_*` clauses, and its range durations. Not a parser: promtool judges the
 * syntax (see dashboard-promtool.ts); this reads the names out so the lint can hold them against the catalogue.
 * Grafana variables (`$operation`, `$__rate_interval`) may appear in strings and ranges as the dashboards write them.
 */

export interface LabelMatcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

export interface Selector {
  metric: string;
  matchers: LabelMatcher[];
  /** The function or aggregation whose parentheses hold the selector directly (`rate`, `max`...), or '' at top level. */
  enclosing: string;
}

export interface PromqlReferences {
  selectors: Selector[];
  /** Labels of `by (...)`: those an aggregation keeps, and so the only ones a legend can show. */
  byLabels: string[];
  /** Labels of `without`, `on`, `ignoring`, `group_left`, `group_right`. */
  otherClauseLabels: string[];
  /** The text between `[` and `]` of every range or subquery. */
  ranges: string[];
  /** What could not be read (a selector without a metric name, an unterminated string...). */
  problems: string[];
}

type Token =
  | { kind: 'identifier'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'variable'; text: string }
  | { kind: 'punctuation'; text: string };

const clauseKeywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
/** Words that are neither metric names nor functions. */
const operatorKeywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan', 'start', 'end']);

const tokenPatterns: Array<[Token['kind'], RegExp]> = [
  // A duration (`offset 5m`) before a plain number, so its unit is not read as a metric name.
  ['number', /^(?:\d+(?:ms|[smhdwy]))+(?![A-Za-z0-9_:])/],
  ['number', /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/],
  ['identifier', /^[A-Za-z_:][A-Za-z0-9_:]*/],
  ['variable', /^(?:\$\{\w+(?::\w+)?\}|\$\w+|\[\[\w+\]\])/],
  ['punctuation', /^(?:=~|!~|!=|==|>=|<=|[{}()[\],=<>+\-*/%^@])/],
];

function tokenize(expr: string, problems: string[]): Token[] {
  const tokens: Token[] = [];
  let rest = expr;
  while (rest.length > 0) {
    const space = /^(?:\s+|#[^\n]*)/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    const quote = rest[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      const string = quote === '`' ? /^`[^`]*`/.exec(rest) : new RegExp(`^${quote}(?:[^${quote}\\\\]|\\\\.)*${quote}`).exec(rest);
      if (!string) {
        problems.push(`unterminated string at "${rest.slice(0, 30)}"`);
        return tokens;
      }
      // The dashboards' values need no escapes beyond \\ and \": enough to compare them with the catalogue.
      tokens.push({ kind: 'string', text: string[0].slice(1, -1).replace(/\\(.)/g, '$1') });
      rest = rest.slice(string[0].length);
      continue;
    }
    const matched = tokenPatterns.map(([kind, pattern]) => [kind, pattern.exec(rest)] as const).find(([, match]) => match);
    if (!matched) {
      problems.push(`unexpected "${rest[0]}" at "${rest.slice(0, 30)}"`);
      return tokens;
    }
    const [kind, match] = matched;
    tokens.push({ kind, text: match![0] } as Token);
    rest = rest.slice(match![0].length);
  }
  return tokens;
}

export function promqlReferences(expr: string): PromqlReferences {
  const result: PromqlReferences = { selectors: [], byLabels: [], otherClauseLabels: [], ranges: [], problems: [] };
  const tokens = tokenize(expr, result.problems);
  const isPunctuation = (index: number, text: string) => tokens[index]?.kind === 'punctuation' && tokens[index].text === text;

  /** Reads `{label op "value", ...}` starting at the `{`; returns the index after the `}`. */
  const readMatchers = (start: number, matchers: LabelMatcher[]): number => {
    let index = start + 1;
    while (index < tokens.length && !isPunctuation(index, '}')) {
      const [label, op, value] = [tokens[index], tokens[index + 1], tokens[index + 2]];
      if (label?.kind !== 'identifier' || op?.kind !== 'punctuation' || !['=', '!=', '=~', '!~'].includes(op.text) || value?.kind !== 'string') {
        result.problems.push(`unreadable label matcher near "${tokens.slice(index, index + 3).map((token) => token.text).join(' ')}"`);
        return tokens.length;
      }
      matchers.push({ label: label.text, op: op.text as LabelMatcher['op'], value: value.text });
      index += 3;
      if (isPunctuation(index, ',')) index += 1;
    }
    return index + 1;
  };

  /** One entry per open parenthesis: the function it belongs to, '' for grouping parentheses. */
  const open: string[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token.kind === 'punctuation' && token.text === '(') {
      const before = tokens[index - 1];
      open.push(before?.kind === 'identifier' && !operatorKeywords.has(before.text.toLowerCase()) ? before.text : '');
      continue;
    }
    if (token.kind === 'punctuation' && token.text === ')') {
      if (open.pop() === undefined) result.problems.push('unbalanced )');
      continue;
    }
    if (token.kind === 'punctuation' && token.text === '[') {
      const close = tokens.findIndex((candidate, at) => at > index && candidate.kind === 'punctuation' && candidate.text === ']');
      if (close < 0) {
        result.problems.push('unclosed [');
        break;
      }
      result.ranges.push(tokens.slice(index + 1, close).map((part) => part.text).join(''));
      index = close;
      continue;
    }
    if (token.kind === 'punctuation' && token.text === '{') {
      result.problems.push('a selector without a metric name');
      const matchers: LabelMatcher[] = [];
      index = readMatchers(index, matchers) - 1;
      continue;
    }
    if (token.kind !== 'identifier') continue;
    if (clauseKeywords.has(token.text)) {
      if (!isPunctuation(index + 1, '(')) continue;
      let close = index + 2;
      while (close < tokens.length && !isPunctuation(close, ')')) {
        if (tokens[close].kind === 'identifier') (token.text === 'by' ? result.byLabels : result.otherClauseLabels).push(tokens[close].text);
        close += 1;
      }
      index = close;
      continue;
    }
    if (operatorKeywords.has(token.text.toLowerCase())) continue;
    const next = tokens[index + 1];
    // A function or an aggregation: `rate(`, `sum(`, `sum by (...) (`.
    if (isPunctuation(index + 1, '(') || (next?.kind === 'identifier' && (next.text === 'by' || next.text === 'without'))) continue;
    const selector: Selector = { metric: token.text, matchers: [], enclosing: open.at(-1) ?? '' };
    result.selectors.push(selector);
    if (isPunctuation(index + 1, '{')) index = readMatchers(index + 1, selector.matchers) - 1;
  }
  if (open.length > 0) result.problems.push('unclosed (');
  return result;
}
