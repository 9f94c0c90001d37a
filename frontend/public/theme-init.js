/* global window, document */
// The theme before the first paint, so a dark-mode visitor never sees a white flash. A file, not an
// inline script: the site's CSP allows scripts from 'self' only. Same rule as src/lib/theme.ts.
(function () {
  var theme = null;
  try {
    theme = window.localStorage.getItem('theme');
  } catch {
    theme = null; // storage blocked: follow the system
  }
  if (theme !== 'light' && theme !== 'dark') {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.documentElement.classList.toggle('dark', theme === 'dark');
})();
