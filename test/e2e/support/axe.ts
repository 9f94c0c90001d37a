import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** WCAG 2.1 level AA: axe-core's rules tagged for levels A and AA of WCAG 2.0 and 2.1. */
export const WCAG21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Best-practice rules run as well: heading-order (a skipped heading level, WCAG 1.3.1's advice
 * rather than its letter) is one issue 19 found on Local Agents.
 */
const ALSO_RUN = { 'heading-order': { enabled: true } };

/** What axe-core's colour-contrast check measured, for a failure line a person can act on. */
interface ContrastData {
  fgColor?: string;
  bgColor?: string;
  contrastRatio?: number;
  expectedContrastRatio?: string;
}

/**
 * axe-core (the copy npm installed, injected by @axe-core/playwright: nothing is fetched) on the
 * page as it is now, at WCAG 2.1 AA plus heading-order. One line per failing element: rule, impact,
 * CSS target and, for contrast, the colours and ratio measured. [] when the page passes.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // options() first: it replaces the options object that withTags() then adds runOnly to.
  const results = await new AxeBuilder({ page }).options({ rules: ALSO_RUN }).withTags(WCAG21_AA_TAGS).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      const contrast = node.any.find((check) => check.id === 'color-contrast')?.data as ContrastData | undefined;
      const measured = contrast?.fgColor
        ? ` (${contrast.fgColor} on ${contrast.bgColor}: ${contrast.contrastRatio}:1, needs ${contrast.expectedContrastRatio})`
        : '';
      return `${violation.id} [${node.impact ?? violation.impact}] ${node.target.join(' >> ')}${measured}: ${violation.help}`;
    }),
  );
}
