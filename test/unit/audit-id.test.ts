import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAuditId } from '../../lambdas/domain/audit-id.js';
import { auditIdSchema } from '../../lambdas/domain/audit.js';

describe('isAuditId (the results page’s zod-free check)', () => {
  const ids = [
    randomUUID(),
    '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f',
    '3F2B8C1E-5D4A-4B6C-9E8F-0A1B2C3D4E5F',
    '3f2b8c1e-5d4a-1b6c-9e8f-0a1b2c3d4e5f',
    '3f2b8c1e-5d4a-4b6c-7e8f-0a1b2c3d4e5f',
    '3f2b8c1e5d4a4b6c9e8f0a1b2c3d4e5f',
    'demo_sample',
    '',
    ' 3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f',
  ];

  it('answers as auditIdSchema does, for v4 UUIDs and for everything else', () => {
    // Act
    const answers = ids.map((id) => [id, isAuditId(id)]);
    // Assess
    expect(answers).toEqual(ids.map((id) => [id, auditIdSchema.safeParse(id).success]));
    expect(answers.filter(([, ok]) => ok).length).toBe(2);
  });
});
