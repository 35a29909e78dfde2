/**
 * Bounds a JSON body before anything walks it recursively (schema validation, defaults, hashing): nesting
 * depth, string length, well-formed strings, finite numbers, and object keys that are neither `__proto__` nor repeated. A body
 * nested thousands of levels deep would otherwise overflow the validator's stack (a 500), `1e400` would become
 * Infinity, and a repeated key would let two readers of the same body see different values.
 *
 * One iterative pass over the text, so the scan itself cannot overflow: it runs on text JSON.parse accepted.
 */
import type { FieldError } from '../../kernel/errors/index.js';

export interface JsonLimits {
  maxDepth: number;
  maxStringLength: number;
}

interface Frame {
  kind: 'object' | 'array';
  /** The key or index of the value being read inside this container. */
  at: string | number;
  keys: Set<string>;
  expectingKey: boolean;
}

/** The first field that breaks a bound, as a JSON pointer and a message; undefined when the text is within bounds. */
export function findJsonLimitViolation(text: string, limits: JsonLimits): FieldError | undefined {
  const frames: Frame[] = [];
  const pointer = () => frames.map((frame) => `/${String(frame.at).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    const top = frames.at(-1);
    if (char === '"') {
      const end = endOfString(text, i);
      const raw = text.slice(i, end + 1);
      // Only a \u escape can spell a lone surrogate: UTF-8 text itself cannot (the decoder refused it).
      if (raw.includes('\\u') && loneSurrogate.test(JSON.parse(raw) as string)) {
        if (top?.kind === 'object' && top.expectingKey) top.at = JSON.parse(raw) as string;
        return { path: pointer(), message: 'is not well-formed Unicode (a lone surrogate)' };
      }
      if (top?.kind === 'object' && top.expectingKey) {
        const key = JSON.parse(raw) as string;
        top.at = key;
        top.expectingKey = false;
        if (key === '__proto__') return { path: pointer(), message: 'is a reserved name' };
        if (top.keys.has(key)) return { path: pointer(), message: 'appears twice in the same object' };
        top.keys.add(key);
      } else if (raw.length - 2 > limits.maxStringLength && (JSON.parse(raw) as string).length > limits.maxStringLength) {
        return { path: pointer(), message: `is longer than ${limits.maxStringLength} characters` };
      }
      i = end;
    } else if (char === '{' || char === '[') {
      if (frames.length >= limits.maxDepth) return { path: pointer(), message: `nests deeper than ${limits.maxDepth} levels` };
      frames.push({ kind: char === '{' ? 'object' : 'array', at: 0, keys: new Set(), expectingKey: char === '{' });
    } else if (char === '}' || char === ']') {
      frames.pop();
    } else if (char === ',' && top) {
      if (top.kind === 'object') top.expectingKey = true;
      else top.at = (top.at as number) + 1;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      let end = i;
      while (end + 1 < text.length && /[0-9eE+\-.]/.test(text[end + 1])) end += 1;
      if (!Number.isFinite(Number(text.slice(i, end + 1)))) return { path: pointer(), message: 'is not a finite number' };
      i = end;
    }
  }
  return undefined;
}

/** A UTF-16 surrogate without its pair: no vendor, database or UTF-8 encoder can take it. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Index of the quote that closes the string opening at `start` (escapes skipped). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}
