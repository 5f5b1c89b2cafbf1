import { describe, expect, test } from 'vitest';
import { allCollections, clearAll, collectionNamesOf, selectionLabel, toggleAll, toggleCollection } from './collection-selection';

describe('usage collection selection (spec §4)', () => {
  test('All is on by default and the collection list is omitted', () => {
    expect(selectionLabel(allCollections)).toBe('All Collections');
    expect(collectionNamesOf(allCollections)).toBeUndefined();
  });

  test('picking a collection turns All off and selects only it', () => {
    const one = toggleCollection(allCollections, 'alpha');
    expect(one).toEqual({ all: false, selected: ['alpha'] });
    expect(selectionLabel(one)).toBe('alpha');
    const two = toggleCollection(one, 'beta');
    expect(selectionLabel(two)).toBe('2 Collections');
    expect(collectionNamesOf(two)).toEqual(['alpha', 'beta']);
    expect(toggleCollection(two, 'alpha')).toEqual({ all: false, selected: ['beta'] });
  });

  test('unchecking All clears the list: nothing is chosen and an empty list is sent', () => {
    const none = toggleAll(allCollections);
    expect(none).toEqual({ all: false, selected: [] });
    expect(selectionLabel(none)).toBe('Please select a collection');
    expect(collectionNamesOf(none)).toEqual([]);
  });

  test('checking All while a specific selection exists resets to All', () => {
    expect(toggleAll({ all: false, selected: ['alpha', 'beta'] })).toEqual(allCollections);
  });

  test("'Clear All' empties the selection", () => {
    expect(clearAll()).toEqual({ all: false, selected: [] });
    expect(selectionLabel(clearAll())).toBe('Please select a collection');
  });
});
