/**
 * One prom-client child per label set, made on first use and kept: the hot path (a create, a finish, an HTTP
 * answer) then looks a child up instead of building and validating a label object per event. The label sets
 * are bounded (manifests, plugins, routes, outcomes), so the cache is too.
 */
export function labelledChildren<Child>(make: (...values: string[]) => Child): (...values: string[]) => Child {
  const made = new Map<string, Child>();
  return (...values) => {
    // NUL cannot occur in a label value we produce, so the joined key is unambiguous.
    const key = values.join('\u0000');
    let child = made.get(key);
    if (child === undefined) {
      child = make(...values);
      made.set(key, child);
    }
    return child;
  };
}
