import type { Park } from '../parks.ts';
import type { ParkEvent } from './event-schemas.ts';

// An event in words, for feed readers and notifications that show only a title and a line.

/** queue-times.com asks every use of its data to credit it, linked. */
export const QUEUE_TIMES_CREDIT = 'Powered by Queue-Times.com';
export const QUEUE_TIMES_URL = 'https://queue-times.com/';

/** "14:05", in the park's time. */
export const parkClock = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(at);

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** The headline: what happened to which ride or to the park. */
export function eventTitle(event: ParkEvent, park: Pick<Park, 'name'>): string {
  const ride = event.ride?.name ?? park.name;
  const wait = event.waitNow === null ? '' : `${event.waitNow} min wait`;
  switch (event.type) {
    case 'ride-down':
      return `${ride} is down`;
    case 'ride-reopened':
      return `${ride} reopened after ${event.downMinutes ?? '?'} min${wait && `: ${wait}`}`;
    case 'wait-below':
      return `${ride}: ${wait}, at or below ${event.band} min`;
    case 'wait-above':
      return `${ride}: ${wait}, above ${event.band} min`;
    case 'park-opened':
      return `${park.name} opened`;
    case 'park-closed':
      return `${park.name} closed`;
    case 'park-hold':
      return `${park.name}: ${event.ridesClosed === undefined ? 'many' : event.ridesClosed} rides closed at once`;
  }
}

/** What else there is to say: the odds of a down ride, the forecast of a running one. */
function detail(event: ParkEvent): string {
  if (event.type === 'ride-down') {
    const odds = event.reopenWithin;
    return odds
      ? `Down ${event.downMinutes} min so far: about ${percent(odds['30'])} back within 30 min, ${percent(odds['60'])} within 60 (from ${event.outages} outages).`
      : `Down ${event.downMinutes} min so far; too few outages recorded to give odds of its reopening.`;
  }
  if (event.type === 'park-hold')
    return 'Often weather or a technical stop; rides closed together are not counted as outages.';
  if (event.forecast !== null) return `In 30 minutes: about ${event.forecast} min.`;
  return '';
}

/** The item's text: headline, park time, detail, credit. */
export function eventText(event: ParkEvent, park: Pick<Park, 'name' | 'timezone'>): string {
  const when = `At ${parkClock(event.at, park.timezone)} park time (${park.name}).`;
  return [`${eventTitle(event, park)}.`, when, detail(event), `${QUEUE_TIMES_CREDIT} (${QUEUE_TIMES_URL})`]
    .filter(Boolean)
    .join(' ');
}
