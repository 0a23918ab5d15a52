import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Axe's violations on the page (or inside `include`), with every rule that runs by default or only
 * the rules of `tags`. Axe is asked for violations alone: passes and incomplete checks would be
 * serialised node by node for nothing, a fifth of the run's time on a large page.
 */
export async function axeViolations(page: Page, options: { include?: string; tags?: string[] } = {}) {
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (options.include) builder = builder.include(options.include);
  if (options.tags) builder = builder.withTags(options.tags);
  return (await builder.analyze()).violations;
}
