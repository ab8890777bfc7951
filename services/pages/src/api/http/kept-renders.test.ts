// Risk covered: the pages' memo of rendered HTML rendering again what it keeps, or keeping more than its
// bound (a flood of distinct pages growing the process without end).
import { describe, expect, it } from '@jest/globals';
import { keptRenders } from './kept-renders.ts';

describe('keptRenders', () => {
  it('renders a key once while it is kept, and each new key afresh', () => {
    const kept = keptRenders(10);
    const made: string[] = [];
    const make = (key: string) => () => (made.push(key), `<p>${key}</p>`);
    expect(kept.render('a', make('a'))).toBe('<p>a</p>');
    expect(kept.render('a', make('a'))).toBe('<p>a</p>');
    expect(kept.render('b', make('b'))).toBe('<p>b</p>');
    expect(made).toEqual(['a', 'b']);
  });

  it('keeps at most its bound, dropping the least recently used', () => {
    const kept = keptRenders(2);
    const made: string[] = [];
    const make = (key: string) => () => (made.push(key), key);
    kept.render('a', make('a'));
    kept.render('b', make('b'));
    kept.render('a', make('a')); // a is now the most recently used
    kept.render('c', make('c')); // drops b
    kept.render('a', make('a'));
    kept.render('b', make('b'));
    expect(made).toEqual(['a', 'b', 'c', 'b']);
  });
});
