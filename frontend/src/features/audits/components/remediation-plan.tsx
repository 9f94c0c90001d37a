import { Fragment } from 'react';
import type { RemediationItemView, RemediationPlanView, RemediationStepView } from '../../../lib/contracts';
import { isServerConfigExample, REMEDIATION_EFFORT_LABELS } from '../../../lib/report-contract';
import { FindingDisclosure } from './finding-disclosure';
import { FindingPlatformFix } from './platform-fix';

const label = 'text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400';
const panelText = 'text-sm text-slate-700 dark:text-slate-300';
const codeBlock = 'overflow-x-auto rounded bg-slate-100 px-3 py-2 font-mono text-sm whitespace-pre text-slate-800 dark:bg-slate-800 dark:text-slate-200';

const SERVER_NAMES = { nginx: 'nginx', apache: 'Apache', iis: 'IIS' } as const;

/** The scanner writes configuration names in `backticks`: shown as code. */
function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.9em] dark:bg-slate-800">
            {part}
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

function Step({ step, serverConfig }: { step: RemediationStepView; serverConfig: boolean }) {
  // On a platform whose server its owner cannot configure, the nginx/Apache/IIS lines do not apply (issue 21).
  const examples = serverConfig ? step.examples : step.examples?.filter((example) => !isServerConfigExample(example));
  return (
    <li className={`${panelText} pl-1`}>
      <InlineCode text={step.text} />
      {examples?.map((example) => (
        <figure key={`${example.label}:${example.code}`} className="mt-2">
          <figcaption className="text-xs font-semibold text-slate-600 dark:text-slate-400">{example.label}</figcaption>
          <pre className={`mt-1 ${codeBlock}`}>
            <code>{example.code}</code>
          </pre>
        </figure>
      ))}
    </li>
  );
}

function PlanItem({ item, number }: { item: RemediationItemView; number: number }) {
  const serverConfig = item.platformGuides?.serverConfig ?? true;
  return (
    <FindingDisclosure
      severity={item.severity}
      title={item.title}
      prefix={<span className="font-semibold text-slate-600 tabular-nums dark:text-slate-400">{number}.</span>}
      meta={`${item.category} · ${REMEDIATION_EFFORT_LABELS[item.effort].split(':')[0]}`}
    >
        <div>
          <p className={label}>Why it matters</p>
          <p className={`mt-1 ${panelText}`}>{item.whyItMatters}</p>
        </div>
        <FindingPlatformFix guides={item.platformGuides} />
        <div>
          <p className={label}>{item.platformGuides ? 'General steps' : 'Steps'}</p>
          <ol className="mt-1 list-decimal space-y-2 pl-6" aria-label={`Steps for ${item.title}`}>
            {item.steps.map((step, i) => (
              <Step key={i} step={step} serverConfig={serverConfig} />
            ))}
          </ol>
        </div>
        <div>
          <p className={label}>How to verify</p>
          <p className={`mt-1 ${panelText}`}>
            <InlineCode text={item.verify.text} />
          </p>
          {item.verify.command && (
            <pre className={`mt-1 ${codeBlock}`}>
              <code>{item.verify.command}</code>
            </pre>
          )}
        </div>
        <p className={panelText}>
          <span className="font-semibold">Effort:</span> {REMEDIATION_EFFORT_LABELS[item.effort]}
        </p>
    </FindingDisclosure>
  );
}

/**
 * The Pro Audit's remediation plan (DECISIONS "What paid audits add"): every issue worst first, each
 * opening to why it matters, numbered steps with configuration examples, how to verify and the effort.
 */
export function RemediationPlan({ plan }: { plan: RemediationPlanView }) {
  return (
    <section aria-labelledby="remediation-heading" data-testid="remediation-plan" className="space-y-3">
      <h2 id="remediation-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        Remediation plan
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        What to do about each issue, worst first.{' '}
        {plan.webServer
          ? `Configuration examples are for ${SERVER_NAMES[plan.webServer]}, the web server this scan saw.`
          : 'Configuration examples are for nginx and Apache.'}
      </p>
      {plan.items.length === 0 ? (
        <p className="rounded-xl border border-green-200 bg-green-50 p-4 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100">
          No issues to fix.
        </p>
      ) : (
        <ol className="space-y-2">
          {plan.items.map((item, i) => (
            <PlanItem key={item.findingId} item={item} number={i + 1} />
          ))}
        </ol>
      )}
    </section>
  );
}
