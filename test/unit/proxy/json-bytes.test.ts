// jsonBytes measures a value as JSON.stringify would write it, without writing it.
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../../electron/proxy/json-bytes.js';

describe('jsonBytes', () => {
  it.each([
    ['text', 'hello'],
    ['unicode', 'héllo ✓ 𝄞'],
    ['number', 3.25],
    ['null', null],
    ['empty array', []],
    ['empty object', {}],
    ['nested', { content: [{ type: 'text', text: 'Echo: hi' }], isError: false, n: [1, 22, 333], deep: { a: { b: [] } } }],
    ['holes JSON drops or nulls', { a: undefined, b: [undefined, 1], c: 'x' }],
  ])('matches JSON.stringify for %s', (_name, value) => {
    expect(jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
  });
});
