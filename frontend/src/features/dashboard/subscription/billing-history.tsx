import { formatMoney } from '../../../lib/catalogue';
import type { InvoiceView, OrderView } from '../../../lib/contracts';
import { receiptHref } from '../../payments/receipt-url';

interface HistoryRow {
  key: string;
  date: string;
  description: string;
  amount: string;
  status: InvoiceView['status'] | OrderView['status'];
  receiptUrl?: string;
}

const statusLabels: Record<HistoryRow['status'], { label: string; className: string }> = {
  paid: { label: 'Paid', className: 'bg-green-50 text-green-800 ring-green-600/20 dark:bg-green-950 dark:text-green-200' },
  open: { label: 'Open', className: 'bg-amber-50 text-amber-900 ring-amber-600/20 dark:bg-amber-950 dark:text-amber-200' },
  pending: { label: 'Pending', className: 'bg-amber-50 text-amber-900 ring-amber-600/20 dark:bg-amber-950 dark:text-amber-200' },
  failed: { label: 'Failed', className: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-950 dark:text-red-200' },
};

const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

/** Invoices of the subscription and the one-off orders, newest first, in one list. */
function historyRows(invoices: InvoiceView[], orders: OrderView[]): HistoryRow[] {
  const rows: HistoryRow[] = [
    ...invoices.map((invoice) => ({
      key: `invoice-${invoice.id}`,
      date: invoice.date,
      description: invoice.description,
      amount: formatMoney(invoice.amountCents, invoice.currency),
      status: invoice.status,
      receiptUrl: invoice.receiptUrl,
    })),
    ...orders.map((order) => ({
      key: `order-${order.checkoutSessionId}`,
      date: order.orderDate,
      description: `${order.planName} (order ${order.orderId})`,
      amount: formatMoney(order.amountTotal, order.currency),
      status: order.status,
      receiptUrl: order.receiptUrl,
    })),
  ];
  return rows.sort((a, b) => b.date.localeCompare(a.date));
}

export function BillingHistory({ invoices, orders }: { invoices: InvoiceView[]; orders: OrderView[] }) {
  const rows = historyRows(invoices, orders);
  if (rows.length === 0) {
    return <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No invoices yet. Invoices appear here once you buy a plan.</p>;
  }
  return (
    <div className="relative mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-4 font-semibold">Date</th>
            <th scope="col" className="py-2 pr-4 font-semibold">Description</th>
            <th scope="col" className="py-2 pr-4 font-semibold">Amount</th>
            <th scope="col" className="py-2 pr-4 font-semibold">Status</th>
            <th scope="col" className="py-2 font-semibold">Receipt</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => {
            const status = statusLabels[row.status];
            return (
              <tr key={row.key}>
                <td className="py-2 pr-4 whitespace-nowrap">{shortDate(row.date)}</td>
                <td className="py-2 pr-4">{row.description}</td>
                <td className="py-2 pr-4 whitespace-nowrap">{row.amount}</td>
                <td className="py-2 pr-4">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${status.className}`}>{status.label}</span>
                </td>
                <td className="py-2">
                  {row.receiptUrl ? (
                    <a href={receiptHref(row.receiptUrl)} target="_blank" rel="noopener" className="font-semibold text-blue-700 underline hover:text-blue-800 dark:text-blue-400">
                      Receipt<span className="sr-only"> for {row.description}, {shortDate(row.date)}</span>
                    </a>
                  ) : (
                    <span className="text-slate-500 dark:text-slate-400">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
