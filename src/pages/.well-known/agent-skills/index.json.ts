import type { APIRoute } from 'astro';
import { buildSkillsIndex } from '../../../discovery/agent-skills.ts';
import { getConfig } from '../../../platform/config.ts';
import { respond } from '../../../platform/http.ts';

// Prerendered with the skills themselves, so each digest is of the bytes this build serves.
export const prerender = true;

export const GET: APIRoute = () => respond({ json: buildSkillsIndex(getConfig().SITE_URL) });
