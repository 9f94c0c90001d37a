import { content } from '../../../config/content';
import { formatPlanPrice, lowestPrice } from '../../../lib/catalogue';
import { cardClass, Section } from './section';

export function WhyChooseUs() {
  const { whyChooseUs } = content;
  const prices = { auditFrom: formatPlanPrice(lowestPrice('audit')), monitoringFrom: formatPlanPrice(lowestPrice('subscription')) };
  return (
    <Section id="why-choose-us" title={whyChooseUs.title}>
      <ol className="grid gap-6 md:grid-cols-3">
        {whyChooseUs.steps.map((step, index) => (
          <li key={step.title} className={cardClass}>
            <span className="flex size-10 items-center justify-center rounded-full bg-blue-700 text-lg font-bold text-white dark:bg-blue-600" aria-hidden="true">
              {index + 1}
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
              <span className="sr-only">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{step.body(prices)}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
