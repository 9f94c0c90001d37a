import type { AgentPlatform, AgentStatus, Grade } from '../../../lib/contracts';

export const cardClass = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';

/** '3:04:05 pm' (en-AU), the viewer's time zone. */
export const timeOfDay = (date: Date): string => date.toLocaleTimeString('en-AU');

/** '22 Nov 2026, 3:04 pm' (en-AU). */
export const dateTime = (iso: string): string =>
  new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });

export const platformLabel: Record<AgentPlatform, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' };

export const statusLabel: Record<AgentStatus, string> = { active: 'Active', disconnected: 'Disconnected', error: 'Error' };

export const statusClass: Record<AgentStatus, string> = {
  active: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  disconnected: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  error: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};

/** DECISIONS "risk_level" colours by score: ≥ 80 green, 60–79 yellow, < 60 red. */
export const scoreClass = (score: number | null): string => {
  if (score === null) return 'text-slate-500 dark:text-slate-400';
  if (score >= 80) return 'text-green-700 dark:text-green-400';
  if (score >= 60) return 'text-yellow-700 dark:text-yellow-400';
  return 'text-red-700 dark:text-red-400';
};

export const gradeText = (grade: Grade | null): string => grade ?? '—';
export const scoreText = (score: number | null): string => (score === null ? '—' : String(score));

/** "3 vulnerabilities, 2 config issues" — or "No issues" once a report has been scored. */
export function issuesText(vulnerabilities: number, configIssues: number, scored: boolean): string {
  if (!scored) return 'Waiting for first report';
  if (vulnerabilities === 0 && configIssues === 0) return 'No issues';
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `${plural(vulnerabilities, 'vulnerability', 'vulnerabilities')}, ${plural(configIssues, 'config issue', 'config issues')}`;
}
