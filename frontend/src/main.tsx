import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The performance score (performance-report.ts): its own chunk, fetched once the page has loaded.
const startReport = () => void import('./lib/performance-report').then(({ startPerformanceReport }) => startPerformanceReport());
if (document.readyState === 'complete') startReport();
else addEventListener('load', startReport, { once: true });
