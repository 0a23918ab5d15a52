import { describe, expect, it } from 'vitest';
import { messageIdFor, parseContactRequest, retryDelayMs } from '../../../src/contact/contact.ts';
import { answersWithHtml, escapeHtml, ownReferer } from '../../../src/contact/contact-view.ts';
import { type ContactMail, composeContactMail, singleLine } from '../../../src/contact/mailer.ts';

const SITE = 'https://site.example';
const LONGEST_EMAIL = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
const valid = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello!' };

describe('the contact request schema', () => {
  it.each([
    ['a plain message', valid, { ...valid, website: '' }],
    [
      'white space around every field, which is dropped',
      { name: '  Ada Lovelace ', email: ' ada@example.com\n', message: '\n Hello!  \n' },
      { ...valid, website: '' },
    ],
    [
      'CRLF line breaks, which become LF',
      { ...valid, message: 'a\r\nb\rc' },
      { ...valid, message: 'a\nb\nc', website: '' },
    ],
    ['tabs in the message', { ...valid, message: 'a\tb' }, { ...valid, message: 'a\tb', website: '' }],
    [
      '100 astral-plane characters as a name',
      { ...valid, name: '😀'.repeat(100) },
      { ...valid, name: '😀'.repeat(100), website: '' },
    ],
    [
      '5000 characters of message',
      { ...valid, message: 'x'.repeat(5000) },
      { ...valid, message: 'x'.repeat(5000), website: '' },
    ],
    [
      'an address of exactly 254 characters',
      { ...valid, email: LONGEST_EMAIL },
      { ...valid, email: LONGEST_EMAIL, website: '' },
    ],
    ['fields it does not know, which are ignored', { ...valid, submit: 'Send', extra: 1 }, { ...valid, website: '' }],
    ['a filled honeypot', { ...valid, website: 'https://spam.example' }, { ...valid, website: 'https://spam.example' }],
  ])('accepts %s', (_case, input, expected) => {
    expect(parseContactRequest(input)).toEqual(expected);
  });

  it.each([
    ['a missing name', { email: valid.email, message: valid.message }, 'name', 'is required'],
    ['an empty name', { ...valid, name: '' }, 'name', 'must be 1 to 100 characters'],
    ['a blank name', { ...valid, name: ' \t ' }, 'name', 'must be 1 to 100 characters'],
    ['a 101-character name', { ...valid, name: 'x'.repeat(101) }, 'name', 'must be 1 to 100 characters'],
    [
      'a name on two lines (CRLF)',
      { ...valid, name: 'Ada\r\nBcc: eve@evil.example' },
      'name',
      'must be a single line without control characters',
    ],
    [
      'a name with a bare LF',
      { ...valid, name: 'Ada\nBcc: x' },
      'name',
      'must be a single line without control characters',
    ],
    [
      'a name with a Unicode line separator',
      { ...valid, name: 'Ada\u2028Bcc: x' },
      'name',
      'must be a single line without control characters',
    ],
    ['a name with a NUL', { ...valid, name: 'Ada\u0000' }, 'name', 'must be a single line without control characters'],
    ['a name that is a number', { ...valid, name: 42 }, 'name', 'must be text'],
    ['a missing address', { name: valid.name, message: valid.message }, 'email', 'is required'],
    ['an address without @', { ...valid, email: 'ada.example.com' }, 'email', 'must be a valid e-mail address'],
    [
      'an address with a line break',
      { ...valid, email: 'ada@example.com\r\nBcc: eve@evil.example' },
      'email',
      'must be a valid e-mail address',
    ],
    [
      'two addresses',
      { ...valid, email: 'ada@example.com, eve@evil.example' },
      'email',
      'must be a valid e-mail address',
    ],
    [
      'an address with a display name',
      { ...valid, email: 'Eve <eve@evil.example>' },
      'email',
      'must be a valid e-mail address',
    ],
    [
      'an address over 254 characters',
      { ...valid, email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com` },
      'email',
      'must be at most 254 characters',
    ],
    ['a missing message', { name: valid.name, email: valid.email }, 'message', 'is required'],
    ['a blank message', { ...valid, message: '\r\n \n' }, 'message', 'must be 1 to 5000 characters'],
    ['5001 characters of message', { ...valid, message: 'x'.repeat(5001) }, 'message', 'must be 1 to 5000 characters'],
    [
      'a message with an escape character',
      { ...valid, message: 'hi\u001b[31m' },
      'message',
      'must not contain control characters',
    ],
    ['a honeypot that is not text', { ...valid, website: 1 }, 'website', 'must be text'],
  ])('rejects %s', (_case, input, path, message) => {
    expect(() => parseContactRequest(input)).toThrow(
      expect.objectContaining({ status: 400, details: { issues: [{ path, message }] } }),
    );
  });

  it.each([
    ['null', null],
    ['an array', [valid]],
    ['a string', 'name=Ada'],
  ])('rejects %s as the whole body', (_case, input) => {
    expect(() => parseContactRequest(input)).toThrow(
      expect.objectContaining({
        status: 400,
        details: { issues: [{ path: '', message: 'must be an object with name, email and message' }] },
      }),
    );
  });

  it('lists every invalid field at once', () => {
    expect(() => parseContactRequest({ name: '', email: 'x', message: '' })).toThrow(
      expect.objectContaining({
        details: {
          issues: [
            { path: 'name', message: 'must be 1 to 100 characters' },
            { path: 'email', message: 'must be a valid e-mail address' },
            { path: 'message', message: 'must be 1 to 5000 characters' },
          ],
        },
      }),
    );
  });
});

describe('header safety', () => {
  it.each([
    ['CRLF', 'Ada\r\nBcc: eve@evil.example', 'Ada Bcc: eve@evil.example'],
    ['bare CR and LF', 'a\rb\nc', 'a b c'],
    ['a NUL and an escape', 'a\u0000b\u001bc', 'a b c'],
    ['Unicode line and paragraph separators', 'a\u2028b\u2029c\u0085d', 'a b c d'],
    ['runs of white space', '  a \t  b  ', 'a b'],
    ['an RFC 2047 encoded word', '=?UTF-8?Q?Ada=0D=0ABcc:_x@y.z?=', '= ?UTF-8?Q?Ada=0D=0ABcc:_x@y.z?='],
  ])('singleLine flattens %s', (_case, input, expected) => {
    expect(singleLine(input)).toBe(expected);
  });

  it('singleLine caps the length in characters, marking the cut', () => {
    expect([...singleLine('😀'.repeat(300), 10)]).toHaveLength(10);
    expect(singleLine('x'.repeat(300), 10)).toBe('xxxxxxxxx…');
  });

  const settings = { smtpUrl: 'smtp://127.0.0.1:2525', from: 'contact@site.example', to: 'owner@example.net' };
  const mail: ContactMail = {
    messageId: '<0b0e4a60-3a2c-4a55-9d0c-7f0d5f7f4b1e@site.example>',
    receivedAt: Date.parse('2026-11-21T10:00:00.000Z'),
    name: 'Eve <eve@evil.example>, "x"\r\nBcc: a@b.c',
    email: 'visitor@example.com',
    message: 'Hello\n.\nBcc: a@b.c',
    siteHost: 'site.example',
  };

  it('sends from and to the configured addresses only; the visitor is Reply-To, as a quoted display name', () => {
    const options = composeContactMail(settings, mail);
    expect(options).toMatchObject({
      from: 'contact@site.example',
      to: 'owner@example.net',
      envelope: { from: 'contact@site.example', to: ['owner@example.net'] },
      replyTo: { name: 'Eve <eve@evil.example>, "x" Bcc: a@b.c', address: 'visitor@example.com' },
      messageId: mail.messageId,
      date: new Date(mail.receivedAt),
      // The subject names the site and the visitor, on one line.
      subject: 'Contact form on site.example: message from Eve <eve@evil.example>, "x" Bcc: a@b.c',
    });
    expect(options).not.toHaveProperty('cc');
    expect(options).not.toHaveProperty('bcc');
    expect(options).not.toHaveProperty('html');
    expect(options.headers).toBeUndefined();
    expect(options.text).toBe(
      'Name: Eve <eve@evil.example>, "x" Bcc: a@b.c\nE-mail: visitor@example.com\nReceived: 2026-11-21T10:00:00.000Z\n\nHello\n.\nBcc: a@b.c\n',
    );
  });

  it.each([
    ['a visitor address with a line break', { ...mail, email: 'a@b.c\r\nBcc: x@y.z' }],
    ['a visitor address list', { ...mail, email: 'a@b.c, x@y.z' }],
    ['a visitor address with a display name', { ...mail, email: 'A <a@b.c>' }],
    ['a malformed Message-ID', { ...mail, messageId: '<a@b>\r\nBcc: x@y.z' }],
  ])('refuses to compose a mail with %s', (_case, bad) => {
    expect(() => composeContactMail(settings, bad)).toThrow(TypeError);
  });
});

describe('outbox rules', () => {
  it.each([
    [1, 1],
    [2, 5],
    [3, 15],
    [4, 30],
    [5, 60],
    [6, 120],
    [7, 240],
    [8, 240],
    [100, 240],
  ])('after %i failed attempt(s) waits %i minutes', (attempts, minutes) => {
    expect(retryDelayMs(attempts)).toBe(minutes * 60_000);
  });

  it('derives the Message-ID from the message id and the site host', () => {
    expect(messageIdFor('0b0e4a60-3a2c-4a55-9d0c-7f0d5f7f4b1e', 'https://www.site.example:8443')).toBe(
      '<0b0e4a60-3a2c-4a55-9d0c-7f0d5f7f4b1e@www.site.example>',
    );
  });
});

describe('answering forms and JSON', () => {
  const post = (contentType: string, headers: Record<string, string> = {}) =>
    new Request(`${SITE}/api/contact`, { method: 'POST', headers: { 'Content-Type': contentType, ...headers } });

  it.each([
    ['a browser form post', post('application/x-www-form-urlencoded', { Accept: 'text/html,*/*;q=0.8' }), true],
    ['a form post without Accept', post('application/x-www-form-urlencoded'), true],
    [
      'a form post from fetch() with its default Accept',
      post('application/x-www-form-urlencoded', { Accept: '*/*' }),
      true,
    ],
    ['a form post asking for JSON', post('application/x-www-form-urlencoded', { Accept: 'application/json' }), false],
    [
      'a form post preferring JSON by quality',
      post('application/x-www-form-urlencoded', { Accept: 'text/html;q=0.5, application/json' }),
      false,
    ],
    [
      'a form post whose exact type outranks a range',
      post('application/x-www-form-urlencoded', { Accept: 'application/json, */*;q=0' }),
      false,
    ],
    [
      'a form post from a browser with the usual Accept',
      post('application/x-www-form-urlencoded', {
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      }),
      true,
    ],
    ['a form post accepting only images', post('application/x-www-form-urlencoded', { Accept: 'image/png' }), false],
    ['a JSON post', post('application/json', { Accept: 'text/html' }), false],
  ])('answers %s with HTML: %s', (_case, request, html) => {
    expect(answersWithHtml(request)).toBe(html);
  });

  it.each([
    ['the page on the site', `${SITE}/about/?x=1#form`, `${SITE}/about/?x=1`],
    ['a page on the host the request reached', 'https://www.site.example/contact', 'https://www.site.example/contact'],
    ['a page that already has a status', `${SITE}/contact?contact=sent`, `${SITE}/contact`],
    ['another site', 'https://evil.example/contact', null],
    ['a look-alike host', 'https://site.example.evil.example/', null],
    ['another scheme', 'http://site.example/contact', null],
    ['garbage', 'not a url', null],
  ])('redirects back to %s', (_case, referer, expected) => {
    const request = new Request('https://www.site.example/api/contact', {
      method: 'POST',
      headers: { Referer: referer },
    });
    expect(ownReferer(request, SITE)?.href ?? null).toBe(expected);
  });

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
