import * as z from 'zod';
import { type HttpMethod, routes } from '../routes.js';
import { historyQuerySchema } from './account.contract.js';
import {
  apiErrorSchema,
  auditHistoryEntrySchema,
  auditHistoryPageSchema,
  auditReportSchema,
  cveDetailSchema,
  startScanRequestSchema,
  startScanResponseSchema,
} from './api-v1.contract.js';
import { auditIdSchema } from './audit.js';

/**
 * The OpenAPI 3.1 document of the public API v1, generated from the route manifest (paths, methods,
 * who may call) and the zod contracts (parameters, bodies, answers): `GET /api/v1/openapi.json`
 * serves it, docs/api.md links it. A v1 route added to the manifest without its operation below
 * does not compile.
 */

type V1RouteName = Extract<(typeof routes)[number], { fn: 'api-v1' }>['name'];

/** What is named in `components.schemas`: requests read as input (defaults optional), answers as output. */
const requestSchemas = { StartScanRequest: startScanRequestSchema } as const;
const responseSchemas = {
  StartScanResponse: startScanResponseSchema,
  AuditHistoryEntry: auditHistoryEntrySchema,
  AuditHistoryPage: auditHistoryPageSchema,
  AuditReport: auditReportSchema,
  CveDetail: cveDetailSchema,
  Error: apiErrorSchema,
} as const;
type SchemaName = keyof typeof requestSchemas | keyof typeof responseSchemas;

interface Answer {
  readonly description: string;
  readonly schema?: SchemaName;
}

interface Operation {
  readonly summary: string;
  readonly description?: string;
  readonly tag: 'Audits' | 'Scans' | 'Documentation';
  readonly query?: z.ZodObject;
  readonly pathParams?: Readonly<Record<string, { schema: z.ZodType; description: string }>>;
  readonly body?: keyof typeof requestSchemas;
  readonly answers: Readonly<Record<number, Answer>>;
}

/** The refusals every token-authenticated route can give (lambdas/use-cases/api-tokens.ts authenticateApiToken). */
const tokenRefusals: Readonly<Record<number, Answer>> = {
  401: { description: '`invalid_token`: the token is missing, unknown, revoked or expired.', schema: 'Error' },
  403: { description: "`plan_required`: the token's owner has no plan with API access (Monitor Plus).", schema: 'Error' },
  429: { description: '`rate_limited`: more requests a minute than the token may make; `Retry-After` says when to try again.', schema: 'Error' },
};

const operations: Record<V1RouteName, Operation> = {
  'api-list-audits': {
    tag: 'Audits',
    summary: "List the token owner's audits, newest first",
    description: 'One page at a time: follow `nextCursor` until it is null.',
    query: historyQuerySchema,
    answers: {
      200: { description: 'A page of audit history entries.', schema: 'AuditHistoryPage' },
      400: { description: '`validation_failed`: `limit` outside 1–100, or a `cursor` this list did not give.', schema: 'Error' },
      ...tokenRefusals,
    },
  },
  'api-get-audit': {
    tag: 'Audits',
    summary: "One of the token owner's audits, with its report",
    pathParams: { auditId: { schema: auditIdSchema, description: 'The audit id (a UUID) from the list or from a started scan.' } },
    answers: {
      200: { description: 'The audit and its report.', schema: 'AuditReport' },
      ...tokenRefusals,
      404: { description: "`audit_not_found`: no such audit, or not the token owner's.", schema: 'Error' },
    },
  },
  'api-start-scan': {
    tag: 'Scans',
    summary: 'Start a scan of a verified domain',
    description: "Counts against the plan's scans, as the dashboard's Quick Scan does.",
    body: 'StartScanRequest',
    answers: {
      201: { description: 'The scan is queued.', schema: 'StartScanResponse' },
      400: { description: '`invalid_json` or `validation_failed`: not a JSON object with a domain, an unknown field, or not a domain name.', schema: 'Error' },
      ...tokenRefusals,
      403: { description: '`plan_required`, `domain_not_verified` (verify it in Settings → Domains first), `scan_limit_reached`, or `scan_opted_out` (the domain\'s owner asked not to be scanned; the message says when).', schema: 'Error' },
    },
  },
  'get-openapi-document': {
    tag: 'Documentation',
    summary: 'This document',
    answers: { 200: { description: 'The OpenAPI 3.1 document of API v1.' } },
  },
};

/** A zod schema as an OpenAPI 3.1 Schema Object (JSON Schema 2020-12, the document's default dialect). */
function schemaObject(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'throw' }) as Record<string, unknown>;
  return rest;
}

function components(): Record<string, unknown> {
  const named = (schemas: Record<string, z.ZodType>, io: 'input' | 'output') => {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
    const { schemas: converted } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'throw' });
    // Each comes with its own `$schema` and a fragment `$id`; within the document neither belongs.
    return Object.fromEntries(Object.entries(converted).map(([id, { $schema: _s, $id: _id, ...schema }]) => [id, schema]));
  };
  return { ...named(requestSchemas, 'input'), ...named(responseSchemas, 'output') };
}

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

function operationObject(name: V1RouteName, auth: string): Record<string, unknown> {
  const op = operations[name];
  const parameters = [
    ...Object.entries(op.pathParams ?? {}).map(([param, { schema, description }]) => ({ name: param, in: 'path', required: true, description, schema: schemaObject(schema, 'input') })),
    ...Object.entries(op.query?.shape ?? {}).map(([param, schema]) => ({
      name: param,
      in: 'query',
      required: !(schema as z.ZodType).safeParse(undefined).success,
      schema: schemaObject(schema as z.ZodType, 'input'),
    })),
  ];
  const responses = Object.fromEntries(
    Object.entries(op.answers).map(([status, answer]) => [
      status,
      {
        description: answer.description,
        ...(status === '429' ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } } : {}),
        content: { 'application/json': { schema: answer.schema ? ref(answer.schema) : { type: 'object' } } },
      },
    ]),
  );
  return {
    operationId: name,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: auth === 'public' ? [] : [{ apiToken: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } } : {}),
    responses,
  };
}

export interface OpenApiOptions {
  readonly productName: string;
  /** The site's address: the API answers under it (CloudFront routes /api/* to API Gateway). */
  readonly siteUrl: string;
  readonly requestsPerMinute: number;
}

const isV1 = (route: (typeof routes)[number]): route is Extract<(typeof routes)[number], { fn: 'api-v1' }> => route.fn === 'api-v1';

/** The document, built from the manifest's `api-v1` routes. */
export function openApiV1Document({ productName, siteUrl, requestsPerMinute }: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Partial<Record<Lowercase<HttpMethod>, unknown>>> = {};
  for (const route of routes.filter(isV1)) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationObject(route.name, route.auth) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${productName} API`,
      version: '1',
      description:
        `Your audits and scans from your own scripts. Create a personal API token in Settings → API (Monitor Plus) and send it as ` +
        `\`Authorization: Bearer rmp_…\`. Each token may make ${requestsPerMinute} requests a minute. Refusals are JSON \`{error, message}\`.`,
    },
    servers: [{ url: siteUrl.replace(/\/+$/, '') }],
    tags: [{ name: 'Audits' }, { name: 'Scans' }, { name: 'Documentation' }],
    paths,
    components: {
      schemas: components(),
      securitySchemes: { apiToken: { type: 'http', scheme: 'bearer', description: 'A personal API token (`rmp_` and 43 characters).' } },
    },
  };
}
