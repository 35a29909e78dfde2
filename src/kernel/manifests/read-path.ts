/** Reads a dot path (`camera_control.zoom`) from plain JSON data; undefined when any step is missing. */
export function readPath(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const step of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
