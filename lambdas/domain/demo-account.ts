import { productSlug } from './product.js';

/**
 * DECISIONS "Demo account": a real user pool account, `demo@{product-slug}.example`, with a fixed
 * password that the login page shows when DEMO_MODE is on (`npm start`). There is no "any password
 * works" path: this password satisfies the pool's policy (password-policy.ts) like any other.
 * Pure, no imports outside the domain: the local server and the frontend may both read it.
 */
export const DEMO_PASSWORD = 'Try-the-Demo-42!';

export interface DemoCredentials {
  email: string;
  password: string;
}

/** The demo account's sign-in, e.g. demo@rampart.example / Try-the-Demo-42! for PRODUCT_NAME "Rampart". */
export function demoCredentials(productName: string): DemoCredentials {
  return { email: `demo@${productSlug(productName)}.example`, password: DEMO_PASSWORD };
}

/** The demo account's two verified domains, under the reserved `.example` top-level domain: nobody's site. */
export function demoDomains(productName: string): [string, string] {
  const slug = productSlug(productName);
  return [`${slug}-demo.example`, `shop.${slug}-demo.example`];
}

export const DEMO_PROFILE = { firstName: 'Demo', lastName: 'User', company: 'Demo Business Pty Ltd' } as const;

/**
 * SPEC §9 "The agent summary shows 3 agents; the debug panel lists 5 recent submissions": the demo
 * account's sample machines, seeded through the agents' own adapter with generated osquery reports
 * (lambdas/agents/report-generator.ts). `domain` indexes demoDomains; `reports` are minutes ago, oldest
 * first; the laptop last reported two hours ago, so the list shows a disconnected agent too.
 */
export const DEMO_AGENTS = [
  { key: 'web', platform: 'linux', hostname: 'web-01', domain: 0, problems: ['vulnerable-packages', 'risky-ports', 'extra-admins'], reports: [25, 15, 5] },
  { key: 'office', platform: 'windows', hostname: 'DESKTOP-DEMO01', domain: 1, problems: ['firewall-off', 'unsigned-persistence'], reports: [12, 2] },
  { key: 'laptop', platform: 'macos', hostname: 'demo-macbook', domain: 1, problems: [], reports: [125] },
] as const;
