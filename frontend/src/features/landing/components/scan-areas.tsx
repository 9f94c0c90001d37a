import { CheckIcon } from '../../../components/ui/check-icon';
import { content } from '../../../config/content';
import { cardClass, Section } from './section';

type AreaId = (typeof content.scanAreas.cards)[number]['id'];

const icons: Record<AreaId, string> = {
  vulnerabilities: 'M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  network: 'M4 4h16v6H4zM4 14h16v6H4zM8 7h.01M8 17h.01',
  breaches: 'M12 15v2m-6 4h12a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2zm10-10V7a4 4 0 0 0-8 0v4h8z',
  infrastructure: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3.6 9h16.8M3.6 15h16.8M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18',
};

export function ScanAreas() {
  const { scanAreas } = content;
  return (
    <Section id="scan-areas" title={scanAreas.title} lead={scanAreas.lead}>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {scanAreas.cards.map((card) => (
          <li key={card.id} className={`flex flex-col ${cardClass}`}>
            <span className="flex size-11 items-center justify-center rounded-xl bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300">
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                <path d={icons[card.id]} />
              </svg>
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{card.title}</h3>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{card.body}</p>
            <ul className="mt-4 space-y-2 text-sm text-slate-700 dark:text-slate-300">
              {card.points.map((point) => (
                <li key={point} className="flex gap-2">
                  <CheckIcon />
                  <span>{point}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </Section>
  );
}
