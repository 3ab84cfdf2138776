// CI is strict for every value a runner may set, and only `0`, `false` or empty turn it off.
import { describe, expect, it } from 'vitest';
import { isStrictCi } from '../ci-mode.js';

describe('isStrictCi', () => {
  it.each([['true', true], ['1', true], ['yes', true], ['woodpecker', true], ['TRUE', true], ['', false], ['0', false], ['false', false], ['False', false], [undefined, false]])('CI=%j → %s', (value, strict) => {
    expect(isStrictCi(value === undefined ? {} : { CI: value })).toBe(strict);
  });
});
