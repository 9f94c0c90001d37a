import { useState } from 'react';
import { useTablist } from '../../../components/ui/tabs';
import { anchors } from '../../../config/anchors';
import { content } from '../../../config/content';
import { getPlan, planComparison, pricingTabs, type PricingTabId } from '../../../lib/catalogue';
import { CheckoutAlert } from '../../payments/components/checkout-alert';
import { useCheckout } from '../../payments/hooks/use-checkout';
import { PlanCard } from './plan-card';
import { PlanComparisonTable } from './plan-comparison-table';

// Each tab's comparison: the audits beside the free report and the scan packs, the monitoring plans side by side.
const comparisonOf: Record<PricingTabId, 'one-off' | 'monitoring'> = { audits: 'one-off', monthly: 'monitoring' };
const comparisons = planComparison();

/**
 * SPEC §2 "Pricing section": two tabs of two plans each, prices from the shared catalogue; under the
 * cards, the tab's comparison table from the plans' grants (issue 21 "Tiers that are true").
 */
export function PricingSection() {
  const [activeTab, setActiveTab] = useState<PricingTabId>('audits');
  const { processingPlanId, error, startCheckout } = useCheckout({ hash: anchors.pricing });
  const tab = pricingTabs.find((candidate) => candidate.id === activeTab) ?? pricingTabs[0];

  const { tabRef, onKeyDown } = useTablist(pricingTabs.map((candidate) => candidate.id), activeTab, setActiveTab);

  return (
    <div id={anchors.pricingAlias} className="scroll-mt-16">
      <section
        id={anchors.pricing}
        aria-labelledby="pricing-heading"
        tabIndex={-1}
        className="scroll-mt-16 bg-white focus:outline-none dark:bg-slate-900"
      >
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
          <div className="mx-auto max-w-2xl text-center">
            <h2 id="pricing-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
              {content.pricing.title}
            </h2>
            <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{content.pricing.lead}</p>
          </div>

          <div role="tablist" aria-label="Plan type" onKeyDown={onKeyDown} className="mx-auto mt-10 flex w-fit max-w-full rounded-xl bg-slate-100 p-1 dark:bg-slate-800">
            {pricingTabs.map((candidate) => {
              const selected = candidate.id === activeTab;
              return (
                <button
                  key={candidate.id}
                  ref={tabRef(candidate.id)}
                  type="button"
                  role="tab"
                  id={`pricing-tab-${candidate.id}`}
                  aria-selected={selected}
                  aria-controls={`pricing-panel-${candidate.id}`}
                  tabIndex={selected ? 0 : -1}
                  onClick={() => setActiveTab(candidate.id)}
                  className={`min-h-11 rounded-lg px-4 py-2 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 sm:px-6 dark:focus-visible:outline-blue-400 ${
                    selected
                      ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white'
                      : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'
                  }`}
                >
                  {candidate.label}
                </button>
              );
            })}
          </div>

          <div
            role="tabpanel"
            id={`pricing-panel-${tab.id}`}
            aria-labelledby={`pricing-tab-${tab.id}`}
            className="mx-auto mt-8 max-w-4xl focus:outline-none"
          >
            <p className="mb-6 rounded-lg bg-blue-50 px-4 py-3 text-center text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100">
              {tab.id === 'audits' ? `${content.pricing.auditsNote} ${content.pricing.subscriberDiscount}` : content.pricing.monthlyNote}
            </p>
            <CheckoutAlert message={error} className="mb-6 text-center" />
            <div className="grid gap-6 md:grid-cols-2">
              {tab.planIds.map((planId) => (
                <PlanCard
                  key={planId}
                  plan={getPlan(planId)}
                  processing={processingPlanId === planId}
                  disabled={processingPlanId !== null}
                  onChoose={() => startCheckout({ planId })}
                />
              ))}
            </div>
            {comparisons
              .filter((table) => table.id === comparisonOf[tab.id])
              .map((table) => (
                <PlanComparisonTable key={table.id} table={table} />
              ))}
          </div>
        </div>
      </section>
    </div>
  );
}
