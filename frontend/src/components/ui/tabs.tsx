import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
}

/** WAI-ARIA tabs keyboard: arrows move and select (wrapping round), Home and End jump to the ends; the chosen tab takes the focus. */
export function useTablist<Id extends string>(ids: readonly Id[], active: Id, select: (id: Id) => void) {
  const refs = useRef<Partial<Record<Id, HTMLButtonElement | null>>>({});
  const tabRef = (id: Id) => (element: HTMLButtonElement | null) => {
    refs.current[id] = element;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const index = ids.indexOf(active);
    const last = ids.length - 1;
    const target = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const id = ids[target]!;
    select(id);
    refs.current[id]?.focus();
  };
  return { tabRef, onKeyDown };
}

/** The tab `?tab=` names (the first one for none or an unknown name), and a setter that replaces it in the URL. */
export function useTabParam<Tab extends TabItem<string>>(tabs: readonly Tab[]): [Tab, (id: Tab['id']) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const value = searchParams.get('tab');
  const active = tabs.find((tab) => tab.id === value) ?? tabs[0]!;
  const select = (id: Tab['id']) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', id);
        return next;
      },
      { replace: true },
    );
  return [active, select];
}

/** An underlined tablist and the active tab's panel (`children`). */
export function Tabs<Id extends string>({
  label,
  tabs,
  active,
  onSelect,
  children,
}: {
  label: string;
  tabs: readonly TabItem<Id>[];
  active: Id;
  onSelect: (id: Id) => void;
  children: ReactNode;
}) {
  const baseId = useId();
  const { tabRef, onKeyDown } = useTablist(tabs.map((tab) => tab.id), active, onSelect);
  return (
    <>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-700">
        {tabs.map((tab) => {
          const selected = tab.id === active;
          return (
            <button
              key={tab.id}
              ref={tabRef(tab.id)}
              type="button"
              role="tab"
              id={`${baseId}-${tab.id}-tab`}
              aria-selected={selected}
              aria-controls={selected ? `${baseId}-${tab.id}-panel` : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onSelect(tab.id)}
              className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-700 ${
                selected
                  ? 'border-blue-700 text-blue-700 dark:border-blue-400 dark:text-blue-400'
                  : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-${active}-panel`} aria-labelledby={`${baseId}-${active}-tab`} tabIndex={0}>
        {children}
      </div>
    </>
  );
}
