/**
 * HTML kept by everything it was rendered from (ADR 0101). The key is the render's whole input, so a
 * view of anything that changed (the payment's state, any field it shows, the language, the brand, the
 * receipt policy) is a new key and rendered afresh: nothing is invalidated, nothing goes stale. Bounded:
 * the least recently used go first. The pages' one memo of rendered HTML: the country `<option>`s per
 * locale and the payment page per input.
 */
export interface KeptRenders<Html = string> {
  /** The HTML kept for `key`, else `make()`'s, kept. */
  render(key: string, make: () => Html): Html;
}

/** `Html`: the text, or the form it is answered in (the payment page keeps its bytes, render.ts). */
export function keptRenders<Html = string>(max: number): KeptRenders<Html> {
  const kept = new Map<string, Html>();
  return {
    render(key, make) {
      const found = kept.get(key);
      if (found !== undefined) {
        // Most recently used last: Map keeps insertion order, so the first key is the one to drop.
        kept.delete(key);
        kept.set(key, found);
        return found;
      }
      const html = make();
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(key, html);
      return html;
    },
  };
}
