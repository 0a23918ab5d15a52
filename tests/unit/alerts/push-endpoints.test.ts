import { describe, expect, it } from 'vitest';
import { pushEndpointProblem } from '../../../src/alerts/push-endpoints.ts';
import { topicOf } from '../../../src/alerts/push-send.ts';

// Endpoints in the shapes the browsers hand out (made-up tokens), and addresses that must never be posted to.

describe('push endpoints', () => {
  it.each([
    ['Firefox (Mozilla autopush)', 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmZ2x0ZXN0'],
    ['Chrome (Google FCM)', 'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bHtest'],
    ['Chrome (FCM Web Push)', 'https://fcm.googleapis.com/wp/dpH5lCsTSSM:APA91bHtest'],
    ['Safari (Apple)', 'https://web.push.apple.com/QGz9fAkTestToken'],
    ['Edge (Microsoft WNS)', 'https://wns2-by3p.notify.windows.com/w/?token=BQYAAADtest'],
  ])('accepts %s', (_, endpoint) => {
    expect(pushEndpointProblem(endpoint, [])).toBeNull();
  });

  it.each([
    ['loopback', 'https://127.0.0.1/push', /known push service/],
    ['IPv6 loopback', 'https://[::1]/push', /known push service/],
    ['a private address', 'https://192.168.1.10/push', /known push service/],
    ['http', 'http://updates.push.services.mozilla.com/wpush/v2/x', /https/],
    ['another port', 'https://web.push.apple.com:444/x', /default https port/],
    ['a look-alike', 'https://web.push.apple.com.example.net/x', /known push service/],
    ['a sub-subdomain of WNS', 'https://a.b.notify.windows.com/w/', /known push service/],
    ['the bare WNS domain', 'https://notify.windows.com/w/', /known push service/],
    ['credentials', 'https://user@fcm.googleapis.com/fcm/send/x', /credentials/],
    ['a relative URL', '/fcm/send/x', /absolute URL/],
  ])('refuses %s', (_, endpoint, problem) => {
    expect(pushEndpointProblem(endpoint, [])).toMatch(problem);
  });

  it('accepts an origin PUSH_ALLOWED_ORIGINS names, and only that origin', () => {
    expect(pushEndpointProblem('http://127.0.0.1:8080/push/a', ['http://127.0.0.1:8080'])).toBeNull();
    expect(pushEndpointProblem('http://127.0.0.1:8081/push/a', ['http://127.0.0.1:8080'])).not.toBeNull();
    expect(pushEndpointProblem('http://user:pw@127.0.0.1:8080/push/a', ['http://127.0.0.1:8080'])).toMatch(
      /credentials/,
    );
  });
});

describe('the Topic of a push (RFC 8030 §5.4)', () => {
  it('is at most 32 base64url characters, one per park and ride', () => {
    expect(topicOf('epcot', 159)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(topicOf('epcot', 159)).toBe(topicOf('epcot', 159));
    expect(topicOf('epcot', 159)).not.toBe(topicOf('epcot', 160));
    expect(topicOf('epcot', 159)).not.toBe(topicOf('magic-kingdom', 159));
  });
});
