/**
 * A Lambda function's bundle in a process of its own, as the Node.js runtime loads it: the handler
 * setting (`{file}.{export}`) names the `.mjs` file in the asset directory and its export. Each
 * invocation arrives over IPC (`{ id, event, context }`) and is answered with the handler's result
 * or its error; like one Lambda execution environment, it runs one invocation at a time, in order.
 * Plain JavaScript, so the bundle is imported by Node itself, not through a test transform.
 */
import path from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [assetDir, handlerSetting] = process.argv.slice(2);
const dot = handlerSetting.lastIndexOf('.');
const started = performance.now();
const loaded = await import(pathToFileURL(path.join(assetDir, `${handlerSetting.slice(0, dot)}.mjs`)).href);
const handler = loaded[handlerSetting.slice(dot + 1)];
if (typeof handler !== 'function') throw new Error(`${handlerSetting}: the bundle exports no such function`);

let queue = Promise.resolve();
process.on('message', (message) => {
  queue = queue.then(() => invoke(message));
});

async function invoke({ id, event, context }) {
  const deadline = Date.now() + context.timeoutMs;
  const lambdaContext = {
    ...context,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    process.send({ id, ok: true, result: await handler(event, lambdaContext) });
  } catch (error) {
    process.send({ id, ok: false, error: { name: error?.name, message: error?.message ?? String(error), stack: error?.stack } });
  }
}
process.send({ ready: true, importMs: performance.now() - started });
