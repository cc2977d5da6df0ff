import { occupiedPaths, pathsOverlap, ROOT_PREFIX, underPrefix } from './path-prefix';

describe('path prefixes', () => {
  it('tell a path under a prefix, with or without a query string, from one that only starts alike', () => {
    const isUnder = underPrefix('cohort-names');
    expect(['/cohort-names', '/cohort-names/x', '/cohort-names?userId=1'].map(isUnder)).toEqual([true, true, true]);
    expect(['/cohort-namesake', '/cohorts', '/'].map(isUnder)).toEqual([false, false, false]);
  });

  it('read the root alias as the first segments of the routes mounted there', () => {
    expect(occupiedPaths(ROOT_PREFIX, ['ctas', 'events'])).toEqual(['ctas', 'events']);
    expect(occupiedPaths('thunder', ['ctas'])).toEqual(['thunder']);
  });

  it('overlap when one path is the other or lies below it', () => {
    expect(pathsOverlap('cta', 'cta')).toBe(true);
    expect(pathsOverlap('cta/admin', 'cta')).toBe(true);
    expect(pathsOverlap('health', 'health/x')).toBe(true);
    expect(pathsOverlap('cta', 'ctas')).toBe(false);
  });
});
