import * as z from 'zod';

/**
 * What the browser needs to know about its deployment and cannot be built into the bundle: the
 * Cognito pool it signs in to. Served as `/runtime-config.json` — by the local server from the
 * emulators it provisioned, on AWS written next to index.html by the stack's site deployment.
 */
export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

export const runtimeConfigSchema = z.object({
  auth: z.object({
    userPoolId: z.string().min(1),
    userPoolClientId: z.string().min(1),
    /**
     * cognito-local, proxied through the site's own origin (so the CSP stays `connect-src 'self'`).
     * Absent on AWS, where Amplify talks to cognito-idp.{region}.amazonaws.com.
     */
    userPoolEndpoint: z.url().optional(),
    /** SRP on AWS; cognito-local has no SRP, so locally USER_PASSWORD_AUTH (TOOLCHAIN.md). */
    authFlowType: z.enum(['USER_SRP_AUTH', 'USER_PASSWORD_AUTH']),
  }),
  /** DECISIONS "Demo account": shown on the login page when DEMO_MODE=1 (never on AWS by default). */
  demo: z.object({ email: z.email(), password: z.string().min(1) }).optional(),
});

export type RuntimeConfig = z.output<typeof runtimeConfigSchema>;

/** Local path the site proxies to cognito-local (bin/local/server.ts). */
export const LOCAL_COGNITO_PROXY_PATH = '/_cognito';
