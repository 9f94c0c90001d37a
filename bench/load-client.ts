/**
 * The bench's load generator, run as its own process (as one runs wrk or autocannon against a server):
 * in the server's process it would share the event loop it measures. Reads one job as JSON on argv,
 * prints autocannon's result as JSON on stdout.
 * - { "url", "connections", "duration" }: GET the url.
 * - { "url", "connections", "amount", "leads": { "from" } }: POST a different lead each time, numbered from `from`.
 */
import autocannon from 'autocannon';

interface Job {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  leads?: { from: number };
}

export const benchLead = (n: number) => ({
  firstName: 'Bench',
  lastName: `Client ${n}`,
  businessName: `Bench Business ${n}`,
  webUrl: `https://site${n}.bench.test`,
  email: `owner${n}@site${n}.bench.test`,
  mobileNumber: '+61412345678',
  agreedToTerms: true,
  agreedToDataCollection: true,
});

async function run(job: Job) {
  let n = job.leads?.from ?? 0;
  return autocannon({
    url: job.url,
    connections: job.connections,
    ...(job.duration ? { duration: job.duration } : {}),
    ...(job.amount ? { amount: job.amount } : {}),
    ...(job.leads
      ? {
          requests: [
            {
              method: 'POST' as const,
              headers: { 'content-type': 'application/json' },
              setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify(benchLead(n++)) }),
            },
          ],
        }
      : {}),
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run(JSON.parse(process.argv[2]!) as Job);
  process.stdout.write(`${JSON.stringify({ total: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx })}\n`);
}
