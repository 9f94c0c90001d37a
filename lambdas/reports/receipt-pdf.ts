import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { OrderView } from '../domain/payments.contract.js';
import { formatMoney } from '../domain/plans.js';

/**
 * A receipt for a paid order (SPEC §2 "Download Receipt"): one A4 page with the business name,
 * order id, date, plan, amount and 'Paid'. pdf-lib's standard fonts, like the report PDF.
 */
export async function renderReceiptPdf(order: OrderView, options: { productName: string; siteUrl: string }): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${options.productName} receipt ${order.orderId}`);
  pdf.setAuthor(options.productName);
  pdf.setCreationDate(new Date(order.orderDate));
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.12, 0.16, 0.22);
  const muted = rgb(0.42, 0.45, 0.5);
  const paid = rgb(0.13, 0.59, 0.29);
  // The standard fonts speak WinAnsi: anything else is replaced, never an error.
  const safe = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
  const left = 56;
  let y = 770;

  page.drawText(safe(options.productName), { x: left, y, size: 24, font: bold, color: ink });
  y -= 34;
  page.drawText('Receipt', { x: left, y, size: 16, font: regular, color: muted });
  page.drawText('Paid', { x: 470, y, size: 16, font: bold, color: paid });
  y -= 48;

  const date = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Australia/Sydney' }).format(new Date(order.orderDate));
  const rows: [string, string][] = [
    ['Order ID', order.orderId],
    ['Date', date],
    ['Plan', order.planName],
    ['Amount', formatMoney(order.amountTotal, order.currency)],
    ['Currency', order.currency.toUpperCase()],
    ['Status', 'Paid'],
    ['Payment reference', order.checkoutSessionId.length > 60 ? `${order.checkoutSessionId.slice(0, 57)}...` : order.checkoutSessionId],
  ];
  for (const [label, value] of rows) {
    page.drawText(label, { x: left, y, size: 11, font: regular, color: muted });
    page.drawText(safe(value), { x: left + 150, y, size: 11, font: label === 'Amount' ? bold : regular, color: ink });
    y -= 24;
  }
  y -= 24;
  page.drawLine({ start: { x: left, y }, end: { x: 539, y }, thickness: 0.5, color: muted });
  y -= 24;
  page.drawText(safe(`Thank you for your purchase. ${options.siteUrl}`), { x: left, y, size: 10, font: regular, color: muted });
  return pdf.save();
}
