import { basic, bearer, JSON_TYPE, json, type Kind, type Shot } from './kinds.mts';
import {
  between,
  CONTACT_POOL,
  GUESSER_ADDRESS,
  MINUTE,
  OWNER_ADDRESS,
  OWNER_TOKEN,
  random,
  rotating,
  SITE_URL,
  SPAMMER_ADDRESS,
  simNow,
  WRONG_TOKEN_POOL,
} from './setup.mts';

/** Requests on fixed schedules beside the mix: the owner's phone, token guessers and contact senders. */

// The owner's phone: a trip with a pin update every `OWNER_EVERY_MS`, in the three formats.
export const OWNER_EVERY_MS = 2000;
export const trip = { lat: 35.6762, lon: 139.6503 };
export let ownerPosts = 0;
export function ownerShot(): { kind: string; shot: Shot } {
  ownerPosts += 1;
  trip.lat += between(-0.01, 0.01);
  trip.lon += between(-0.01, 0.01);
  const now = simNow();
  const lat = Number(trip.lat.toFixed(6));
  const lon = Number(trip.lon.toFixed(6));
  const post = (headers: Record<string, string>, body: unknown): Shot => ({
    method: 'POST',
    path: '/api/location',
    headers: { ...JSON_TYPE, ...headers },
    body: json(body),
    localAddress: OWNER_ADDRESS,
  });
  // Travel mode off now and then, and on again with the next update.
  if (ownerPosts % 60 === 0) return { kind: 'travel off', shot: post(bearer(OWNER_TOKEN), { active: false }) };
  if (ownerPosts % 60 === 1) {
    return {
      kind: 'plain',
      shot: post(bearer(OWNER_TOKEN), {
        active: true,
        lat,
        lon,
        label: 'Tokyo',
        timestamp: new Date(now).toISOString(),
      }),
    };
  }
  const roll = random();
  if (roll < 0.35) {
    return {
      kind: 'plain',
      shot: post(bearer(OWNER_TOKEN), {
        latitude: String(lat),
        longitude: String(lon),
        label: 'Tokyo',
        timestamp: new Date(now).toISOString(),
      }),
    };
  }
  if (roll < 0.65) {
    const android = random() < 0.5;
    const seconds = Math.floor(now / 1000);
    return {
      kind: 'OwnTracks',
      shot: post(
        android
          ? { ...basic('phone', OWNER_TOKEN), 'User-Agent': 'Owntracks-Android/2.5.3' }
          : { ...bearer(OWNER_TOKEN), 'X-Limit-U': 'owner', 'X-Limit-D': 'phone' },
        { _type: 'location', lat, lon, tst: seconds, created_at: seconds, batt: 53, acc: 12, tid: 'ph', conn: 'm' },
      ),
    };
  }
  if (roll < 0.72) {
    return {
      kind: 'OwnTracks other',
      shot: post(bearer(OWNER_TOKEN), { _type: 'transition', event: 'enter', tst: Math.floor(now / 1000) }),
    };
  }
  if (roll < 0.9) {
    const points = 1 + Math.floor(random() * 50);
    const locations = Array.from({ length: points }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lon + i * 1e-4, lat - i * 1e-4] },
      properties: {
        timestamp: new Date(now - (points - 1 - i) * 5000).toISOString(),
        altitude: 40,
        speed: 1.2,
        horizontal_accuracy: 10,
        motion: ['walking'],
        battery_level: 0.8,
        wifi: '',
      },
    }));
    return { kind: 'Overland', shot: post(bearer(OWNER_TOKEN), { locations }) };
  }
  // A fix the phone queued while offline, arriving after newer ones.
  const late = now - between(10, 60) * MINUTE;
  return {
    kind: 'out of order',
    shot: post(bearer(OWNER_TOKEN), { lat: lat - 0.05, lon: lon - 0.05, timestamp: new Date(late).toISOString() }),
  };
}
export const ownerKinds = new Map<string, Kind>(
  ['plain', 'OwnTracks', 'OwnTracks other', 'Overland', 'out of order', 'travel off'].map((name) => [
    name,
    { name: `POST /api/location (owner, ${name})`, expected: [200] },
  ]),
);

/** Requests on their own fixed schedule (rate limits are per simulated time and per client). */
export interface Stream {
  everyMs: number;
  next(): { kind: Kind; shot: Shot };
}

export const nextWrongTokenAddress = rotating(WRONG_TOKEN_POOL);
export const wrongToken: Kind = {
  name: 'POST /api/location (wrong token, varied clients)',
  expected: [401],
};
export const noCredentials: Kind = {
  name: 'POST /api/location (no credentials)',
  expected: [401],
};
export const malformed: Kind = {
  name: 'POST /api/location (malformed Authorization)',
  expected: [400],
};
export const guesser: Kind = {
  name: 'POST /api/location (token guesser, one client)',
  expected: [401, 429],
};

export const nextContactAddress = rotating(CONTACT_POOL);
export const contactJson: Kind = {
  name: 'POST /api/contact (JSON)',
  expected: [200, 202],
};
export const contactForm: Kind = {
  name: 'POST /api/contact (HTML form)',
  expected: [303],
};
export const contactHoneypot: Kind = {
  name: 'POST /api/contact (honeypot)',
  expected: [200],
};
export const contactSpammer: Kind = {
  name: 'POST /api/contact (one client over the limit)',
  expected: [200, 202, 429],
};
export let contactNumber = 0;
export const contactBody = () => {
  contactNumber += 1;
  return {
    name: `Visitor ${contactNumber}`,
    email: `visitor${contactNumber}@example.org`,
    message: `Hello! Message ${contactNumber} from the soak. Which park has the shortest waits tonight?`,
  };
};

export const STREAMS: Stream[] = [
  {
    everyMs: OWNER_EVERY_MS,
    next: () => {
      const { kind, shot } = ownerShot();
      return { kind: ownerKinds.get(kind) as Kind, shot };
    },
  },
  {
    everyMs: 2000,
    next: () => {
      const localAddress = nextWrongTokenAddress();
      const roll = random();
      const body = json({ lat: 48.8566, lon: 2.3522 });
      if (roll < 0.6) {
        const headers = random() < 0.5 ? bearer(`guess-${Math.floor(random() * 1e9)}`) : basic('x', 'guess');
        return {
          kind: wrongToken,
          shot: { method: 'POST', path: '/api/location', headers: { ...JSON_TYPE, ...headers }, body, localAddress },
        };
      }
      if (roll < 0.8) {
        return {
          kind: noCredentials,
          shot: { method: 'POST', path: '/api/location', headers: JSON_TYPE, body, localAddress },
        };
      }
      return {
        kind: malformed,
        shot: {
          method: 'POST',
          path: '/api/location',
          headers: { ...JSON_TYPE, Authorization: 'Bearer two words' },
          body,
          localAddress,
        },
      };
    },
  },
  {
    everyMs: 2000,
    next: () => ({
      kind: guesser,
      shot: {
        method: 'POST',
        path: '/api/location',
        headers: { ...JSON_TYPE, ...bearer(`guess-${Math.floor(random() * 1e9)}`) },
        body: json({ lat: 1, lon: 1 }),
        localAddress: GUESSER_ADDRESS,
      },
    }),
  },
  {
    everyMs: 4000,
    next: () => {
      const localAddress = nextContactAddress();
      const roll = random();
      if (roll < 0.6) {
        return {
          kind: contactJson,
          shot: { method: 'POST', path: '/api/contact', headers: JSON_TYPE, body: json(contactBody()), localAddress },
        };
      }
      if (roll < 0.9) {
        return {
          kind: contactForm,
          shot: {
            method: 'POST',
            path: '/api/contact',
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
              Origin: SITE_URL,
              Referer: `${SITE_URL}/contact/`,
            },
            body: new URLSearchParams({ ...contactBody(), website: '' }).toString(),
            localAddress,
          },
        };
      }
      return {
        kind: contactHoneypot,
        shot: {
          method: 'POST',
          path: '/api/contact',
          headers: JSON_TYPE,
          body: json({ ...contactBody(), website: 'https://spam.example' }),
          localAddress,
        },
      };
    },
  },
  {
    everyMs: 10_000,
    next: () => ({
      kind: contactSpammer,
      shot: {
        method: 'POST',
        path: '/api/contact',
        headers: JSON_TYPE,
        body: json(contactBody()),
        localAddress: SPAMMER_ADDRESS,
      },
    }),
  },
];
