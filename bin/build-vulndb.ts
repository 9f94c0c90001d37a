/**
 * `npm run build:vulndb`: builds the product's own compact knowledge base from the offline data
 * in ../shared/data/vulndb (or --source DIR). The product reads only what this writes, under
 * lambdas/scanner/data/, never ../shared.
 *
 * So far: the nmap top-1000 TCP port list (ports check). The CVE knowledge base joins it (issue 4).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const sourceIndex = args.indexOf('--source');
const source = resolve(sourceIndex >= 0 ? args[sourceIndex + 1]! : '../shared/data/vulndb');
const out = resolve('lambdas/scanner/data');

function buildTopPorts() {
  const lines = readFileSync(join(source, 'nmap-top1000-tcp.csv'), 'utf8').trim().split('\n');
  const [header, ...rows] = lines;
  if (header !== 'port,service,frequency') throw new Error(`Unexpected header in nmap-top1000-tcp.csv: ${header}`);
  const ports = rows.map((row) => {
    const [port, service] = row.split(',');
    const number = Number(port);
    if (!Number.isInteger(number) || number < 1 || number > 65535) throw new Error(`Bad port line: ${row}`);
    return [number, service ?? 'unknown'] as const;
  });
  if (ports.length !== 1000 || new Set(ports.map(([p]) => p)).size !== 1000) throw new Error('Expected 1,000 distinct ports');
  writeFileSync(
    join(out, 'top-ports.json'),
    `${JSON.stringify({
      source: 'nmap-services (Debian nmap 7.93) via shared/data/vulndb/nmap-top1000-tcp.csv: TCP ports by open-frequency, most frequent first',
      ports,
    })}\n`,
  );
  return ports.length;
}

const counts = { topPorts: buildTopPorts() };
console.log(`Knowledge base written to ${out}:`, counts);
