// Image references follow the OCI distribution grammar; anything else (flags, spaces, control characters,
// upper-case paths) is refused with a reason.
import { describe, expect, it } from 'vitest';
import { imageReferenceProblem, isImageReference } from '../../../shared/image-ref.js';

describe('image references', () => {
  it.each([
    'python:3.14-slim',
    'localhost/sandbar-python:test',
    'docker.io/library/python:3.12',
    'registry.example.com:5000/team/py_sandbox__v2:1.0.0-rc.1',
    'ghcr.io/o/img@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    '[::1]:5000/img',
    'a',
  ])('accepts %s', (ref) => {
    expect(imageReferenceProblem(ref)).toBeNull();
  });

  it.each([
    ['--privileged', 'not a flag'],
    ['-v', 'not a flag'],
    ['python:3 --privileged', 'without spaces'],
    ['python:3\n--privileged', 'without spaces or control characters'],
    ['python\u0000', 'control characters'],
    ['python\u009b31m', 'control characters'],
    ['Python:3', 'must be an image reference such as'],
    ['python:', 'must be an image reference such as'],
    ['python::3', 'must be an image reference such as'],
    ['/python', 'must be an image reference such as'],
    ['python@sha256:short', 'must be an image reference such as'],
    ['', 'must name an image'],
    [`a/${'b'.repeat(600)}`, 'at most 512 characters'],
  ])('refuses %j (%s)', (ref, reason) => {
    expect(imageReferenceProblem(ref)).toContain(reason);
    expect(isImageReference(ref)).toBe(false);
  });
});
