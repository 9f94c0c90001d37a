import { useMemo, useState } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AuditHistoryEntry } from '../../../lib/contracts';

interface Point {
  time: number;
  score: number;
}

const dateLabel = (time: number) => new Date(time).toLocaleDateString('en-AU', { day: 'numeric', month: 'short' });

/** Completed audits with a score, per domain, oldest first. */
export function scoreSeries(audits: readonly AuditHistoryEntry[]): Map<string, Point[]> {
  const series = new Map<string, Point[]>();
  for (const audit of audits) {
    if (audit.status !== 'completed' || audit.riskScore === null) continue;
    const points = series.get(audit.domain) ?? [];
    points.push({ time: Date.parse(audit.scanDate), score: audit.riskScore });
    series.set(audit.domain, points);
  }
  for (const points of series.values()) points.sort((a, b) => a.time - b.time);
  return series;
}

/** The score over time for one domain at a time (recharts), with the same figures as a table for screen readers. */
export function ScoreChart({ audits }: { audits: readonly AuditHistoryEntry[] }) {
  const series = useMemo(() => scoreSeries(audits), [audits]);
  const domains = [...series.keys()].sort();
  const [chosen, setChosen] = useState<string>();
  const domain = chosen && series.has(chosen) ? chosen : domains[0];
  if (!domain) return <p className="text-sm text-slate-600 dark:text-slate-400">Scores appear here after your first completed scan.</p>;
  const points = series.get(domain)!;

  return (
    <div>
      {domains.length > 1 && (
        <label className="mb-3 flex items-center gap-2 text-sm">
          <span className="font-semibold">Domain</span>
          <select
            value={domain}
            onChange={(event) => setChosen(event.target.value)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-950"
          >
            {domains.map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </label>
      )}
      <div className="h-56 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 224 }}>
          {/* No keyboard layer: the chart is hidden from assistive technology (the table below reads the same figures), so nothing in it may take the focus. */}
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#cbd5e1" />
            <XAxis dataKey="time" type="number" scale="time" domain={['dataMin', 'dataMax']} tickFormatter={dateLabel} fontSize={12} />
            <YAxis domain={[0, 100]} fontSize={12} />
            <Tooltip labelFormatter={(value) => dateLabel(Number(value))} formatter={(value) => [value, 'Score']} />
            <Line type="monotone" dataKey="score" stroke="#1d4ed8" strokeWidth={2} dot isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>Security score over time for {domain}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Score</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.time}>
              <td>{new Date(point.time).toLocaleDateString('en-AU')}</td>
              <td>{point.score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
