/**
 * The vulnerability knowledge base: version comparison, CVE matching by product and version, and one
 * finding per product. Data: lambdas/scanner/data/vulndb.json (npm run build:vulndb; see PROVENANCE.md).
 */
export { distributionPatchLevel } from './backport.js';
export { cveDetail, findingSeverity, type GroupedFinding, groupAsFinding, type GroupOptions, type MatchConfidence, type VulnerabilityFindingData } from './finding.js';
export { knowledgeBaseFingerprint } from './knowledge-base.js';
export { knownProducts, matchVulnerabilities, resolveProduct } from './match.js';
export { type CoreProductId, PRODUCT_CATALOG, type ProductId } from './products.js';
export type * from './types.js';
export { compareVersions, parseVersion, type ParsedVersion, type VersionScheme } from './version.js';
