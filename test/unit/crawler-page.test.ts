import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatPlanPrice, getPlan, lowestPrice, plans, pricingTabs } from '../../lambdas/domain/plans.js';

/**
 * frontend/public/crawler.html is static HTML (served to bots by the local server and the
 * CloudFront Function), so nothing renders it from the catalogue: these tests keep it in step.
 */
const html = readFileSync(new URL('../../frontend/public/crawler.html', import.meta.url), 'utf8');
const contentSource = readFileSync(new URL('../../frontend/src/config/content.ts', import.meta.url), 'utf8');
const text = (fragment: string) => fragment.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();

function planRow(planId: string): { name: string; price: string } {
  const row = new RegExp(`<tr data-plan="${planId}"><th scope="row">([^<]+)</th><td>([^<]+)</td>`).exec(html);
  if (!row) throw new Error(`crawler.html has no row for ${planId}`);
  return { name: row[1]!, price: row[2]! };
}

describe('the crawler page (frontend/public/crawler.html)', () => {
  it.each(pricingTabs.flatMap((tab) => tab.planIds))("lists %s with the catalogue's name and price", (planId) => {
    // Prepare
    const plan = getPlan(planId);

    // Act
    const row = planRow(planId);

    // Assess
    expect(row.name).toBe(plan.name);
    expect(row.price).toBe(plan.billing === 'monthly' ? formatPlanPrice(plan) : `${formatPlanPrice(plan)} one-off`);
  });

  it('names no price the catalogue does not have', () => {
    // Prepare
    const catalogue = new Set(plans.map((plan) => formatPlanPrice(plan).replace('/month', '')));

    // Act
    const quoted = [...html.matchAll(/A\$[\d,]+(?:\.\d\d)?/g)].map((match) => match[0]);

    // Assess
    expect(quoted.length).toBeGreaterThan(4);
    for (const price of quoted) expect(catalogue, price).toContain(price);
    expect(text(html)).toContain(`detailed remediation from ${formatPlanPrice(lowestPrice('audit'))}`);
    expect(text(html)).toContain(`from ${formatPlanPrice(lowestPrice('subscription'))}`);
  });

  it("states the content file's promises, as written there, and no figure that is not measured (DECISIONS \"Marketing figures are measured\")", () => {
    // Prepare: static HTML cannot show the platform's measured figures, so it shows none, only promises.
    const promisesBlock = /export const promises = \{([\s\S]*?)\n\}/.exec(contentSource)?.[1] ?? '';
    const promises = [...promisesBlock.matchAll(/value: '([^']+)', label: '([^']+)'/g)].map((match) => `${match[1]} ${match[2]}`);
    const claims = [...html.matchAll(/<ul class="claims">([\s\S]*?)<\/ul>/g)].map((match) => text(match[1]!)).join(' ');

    // Assess
    expect(promises.length).toBeGreaterThan(0);
    for (const promise of promises) expect(text(html), promise).toContain(promise);
    for (const figure of ['10,000', '50+', '99.8', '3.2', '45 s', '15+']) expect(text(html), figure).not.toContain(figure);
    expect(claims).toContain('Monitor Plus daily, Monitor Lite weekly');
  });

  it('links the form, pricing and both legal pages', () => {
    // Assess
    for (const href of ['/#audit-form', '/#pricing-section', '/terms', '/privacy']) expect(html).toContain(`href="${href}"`);
  });
});

describe('the theme script run before the first paint (frontend/public/theme-init.js)', () => {
  it('reads the same storage key as src/lib/theme.ts', () => {
    // Prepare
    const script = readFileSync(new URL('../../frontend/public/theme-init.js', import.meta.url), 'utf8');
    const themeSource = readFileSync(new URL('../../frontend/src/lib/theme.ts', import.meta.url), 'utf8');

    // Act
    const key = /THEME_STORAGE_KEY = '([^']+)'/.exec(themeSource)?.[1];

    // Assess
    expect(key).toBeDefined();
    expect(script).toContain(`localStorage.getItem('${key}')`);
  });
});
