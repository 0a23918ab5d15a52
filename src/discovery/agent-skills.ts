/**
 * Agent Skills discovery 0.2.0 (https://github.com/cloudflare/agent-skills-discovery-rfc): skills and index for
 * SITE_URL, prerendered in one build so a digest cannot go stale.
 */
import { createHash } from 'node:crypto';
import { waitTimesExample } from '../wait-times/live/example.ts';
import { PARKS } from '../wait-times/parks.ts';
import parkWaitTimes from './skills/park-wait-times/SKILL.md?raw';

export const AGENT_SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** Skill templates by name; the name is also the folder the skill is served from. */
const TEMPLATES: Readonly<Record<string, string>> = { 'park-wait-times': parkWaitTimes };
export const SKILL_NAMES: readonly string[] = Object.keys(TEMPLATES);

/** The SKILL.md of `name` as served for `siteUrl`; a placeholder the code does not know fails the build. */
export function renderSkill(name: string, siteUrl: string): string {
  const template = TEMPLATES[name];
  if (template === undefined) throw new Error(`no agent skill named ${name}`);
  const example = waitTimesExample();
  // Values the templates may use as `{{NAME}}`.
  const values: Record<string, string> = {
    SITE_URL: siteUrl,
    PARK_TABLE: ['| slug | park |', '|---|---|', ...PARKS.map((park) => `| \`${park.slug}\` | ${park.name} |`)].join(
      '\n',
    ),
    // A real answer, shortened to three rides that have a posted wait.
    EXAMPLE: JSON.stringify({ ...example, rides: example.rides.filter((ride) => ride.wait > 0).slice(0, 3) }, null, 2),
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`skill ${name}: unknown placeholder {{${key}}}`);
    return value;
  });
}

/** The YAML frontmatter of a SKILL.md: flat `key: value` lines (the skills we write use no nesting). */
export function frontmatterOf(markdown: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  if (!match?.[1]) throw new Error('SKILL.md must start with a --- frontmatter block');
  const fields: Record<string, string> = {};
  for (const line of match[1].split('\n')) {
    if (line.trim() === '') continue;
    const field = /^([a-z][a-z-]*):\s*(.*)$/.exec(line);
    if (!field?.[1] || field[2] === undefined) throw new Error(`unsupported frontmatter line: ${line}`);
    fields[field[1]] = field[2].trim();
  }
  return fields;
}

/** /.well-known/agent-skills/index.json for `siteUrl`, sorted by name; each digest is of the exact bytes served. */
export function buildSkillsIndex(siteUrl: string) {
  return {
    $schema: AGENT_SKILLS_SCHEMA,
    skills: [...SKILL_NAMES].sort().map((name) => {
      const markdown = renderSkill(name, siteUrl);
      return {
        name,
        type: 'skill-md' as const,
        description: frontmatterOf(markdown).description ?? '',
        url: new URL(`/.well-known/agent-skills/${name}/SKILL.md`, siteUrl).href,
        digest: `sha256:${createHash('sha256').update(markdown, 'utf8').digest('hex')}`,
      };
    }),
  };
}
export type SkillsIndex = ReturnType<typeof buildSkillsIndex>;
