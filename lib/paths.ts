import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so synth works from any working directory. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const fromRoot = (...segments: string[]): string => path.join(repoRoot, ...segments);

/** The built frontend; deployed only when it exists, so synth never needs a frontend build. */
export const frontendDist = fromRoot('frontend', 'dist');

export const hasFrontendBuild = (dir: string = frontendDist): boolean => existsSync(path.join(dir, 'index.html'));
