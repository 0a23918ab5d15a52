import type { APIRoute, GetStaticPaths } from 'astro';
import { renderSkill, SKILL_NAMES } from '../../../../discovery/agent-skills.ts';
import { getConfig } from '../../../../platform/config.ts';

// Prerendered: served as a static file (text/markdown, headers from netlify.toml).
export const prerender = true;

export const getStaticPaths: GetStaticPaths = () => SKILL_NAMES.map((name) => ({ params: { name } }));

export const GET: APIRoute = ({ params }) => new Response(renderSkill(String(params.name), getConfig().SITE_URL));
