import { describe, expect, it } from 'vitest';
import { type BodyKind, readBody } from '../../../src/platform/request-body.ts';

const post = (body: string, contentType?: string) =>
  new Request('http://localhost/x', {
    method: 'POST',
    body,
    headers: contentType ? { 'Content-Type': contentType } : {},
  });

describe('readBody', () => {
  const json: BodyKind[] = ['json'];
  const both: BodyKind[] = ['json', 'form'];

  it.each([
    ['JSON', post('{"a":1}', 'application/json'), json, { kind: 'json', value: { a: 1 } }],
    [
      'JSON with a charset',
      post('{"a":1}', 'application/json; charset=utf-8'),
      json,
      { kind: 'json', value: { a: 1 } },
    ],
    ['a +json media type', post('[1]', 'application/geo+json'), json, { kind: 'json', value: [1] }],
    [
      'a form',
      post('name=A+B&x=%C3%A9', 'application/x-www-form-urlencoded'),
      both,
      { kind: 'form', value: { name: 'A B', x: 'é' } },
    ],
  ])('reads %s', async (_case, request, accept, expected) => {
    await expect(readBody(request, { maxBytes: 1024, accept })).resolves.toEqual(expected);
  });

  it.each([
    ['no content type', post('{}'), json, 415],
    ['text/plain', post('{}', 'text/plain'), json, 415],
    ['a form where only JSON is read', post('a=1', 'application/x-www-form-urlencoded'), json, 415],
    ['JSON that does not parse', post('{"a":', 'application/json'), json, 400],
    ['a body over the limit', post(JSON.stringify({ a: 'x'.repeat(2000) }), 'application/json'), json, 413],
  ])('rejects %s with %i', async (_case, request, accept, status) => {
    await expect(readBody(request, { maxBytes: 1024, accept })).rejects.toMatchObject({ status });
  });

  it('treats form fields named __proto__ and constructor as plain fields', async () => {
    const request = post('__proto__=a&constructor=b', 'application/x-www-form-urlencoded');
    const { value } = await readBody(request, { maxBytes: 1024, accept: ['form'] });
    expect(Object.entries(value as object)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
  });

  it('keeps the first value of a repeated form field', async () => {
    const request = post('name=first&name=second', 'application/x-www-form-urlencoded');
    await expect(readBody(request, { maxBytes: 1024, accept: ['form'] })).resolves.toEqual({
      kind: 'form',
      value: { name: 'first' },
    });
  });

  it('stops reading a streamed body as soon as it passes the limit', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new Request('http://localhost/x', {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json' },
      // @ts-expect-error Node's fetch needs `duplex` for a streamed body.
      duplex: 'half',
    });
    await expect(readBody(request, { maxBytes: 4096, accept: json })).rejects.toMatchObject({ status: 413 });
    expect(pulled).toBeLessThan(10);
  });
});
