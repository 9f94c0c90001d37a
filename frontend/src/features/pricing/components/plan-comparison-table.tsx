import { CheckIcon } from '../../../components/ui/check-icon';
import type { ComparisonCell, ComparisonTable } from '../../../lib/catalogue';

function Cell({ value }: { value: ComparisonCell }) {
  if (value === true) {
    return (
      <>
        <CheckIcon className="mx-auto size-5 text-green-600 dark:text-green-400" />
        <span className="sr-only">Included</span>
      </>
    );
  }
  if (value === false) {
    return (
      <>
        <span aria-hidden="true" className="text-slate-500 dark:text-slate-400">
          —
        </span>
        <span className="sr-only">Not included</span>
      </>
    );
  }
  return <>{value}</>;
}

/**
 * One comparison table of the pricing section (issue 21 "Tiers that are true"), printed from the
 * catalogue's grants (lambdas/domain/plan-comparison.ts): what each plan really does, row by row.
 */
export function PlanComparisonTable({ table }: { table: ComparisonTable }) {
  const captionId = `plan-comparison-${table.id}`;
  return (
    // Scrolls sideways on a phone; focusable and named so a keyboard user can scroll it too. Positioned, so the
    // screen-reader-only labels (position: absolute) stay inside the scrolling box instead of widening the page.
    <div role="region" aria-labelledby={captionId} tabIndex={0} className="relative mt-10 overflow-x-auto rounded-2xl border border-slate-200 focus-visible:outline-2 focus-visible:outline-blue-700 dark:border-slate-800">
      <table data-testid={captionId} className="w-full min-w-[40rem] border-collapse text-left text-sm">
        <caption id={captionId} className="px-4 py-3 text-left text-base font-semibold text-slate-900 dark:text-white">
          {table.caption}
        </caption>
        <thead className="bg-slate-50 dark:bg-slate-800">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold text-slate-700 dark:text-slate-200">
              <span className="sr-only">What you get</span>
            </th>
            {table.columns.map((column) => (
              <th key={column.id} scope="col" className="px-4 py-3 text-center font-semibold text-slate-900 dark:text-white">
                {column.name}
                <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">{column.price}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {table.rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-700 dark:text-slate-200">
                {row.label}
              </th>
              {row.cells.map((cell, index) => (
                <td key={table.columns[index]?.id ?? index} className="px-4 py-3 text-center text-slate-700 dark:text-slate-300">
                  <Cell value={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
