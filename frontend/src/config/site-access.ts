/**
 * DECISIONS "Blocked is a result" and "Grade caps": the words the results and shared pages add
 * around what the backend says (site-access-view.ts writes the first sentence and the steps,
 * grade-caps.ts each cap's reason), so the page, the PDF and the emails agree.
 */
export const siteAccessContent = {
  heading: 'We could not see your site',
  notCheckedIntro: 'So these were not checked, and are not in the grade:',
  /** Beside each check the site kept out: "Not checked — the site blocked the scanner". */
  notChecked: (cause: string) => `Not checked — ${cause}`,
  /** What each page-reading check would have looked at, in the site owner's words. */
  checkCovers: {
    http: 'security headers and cookies',
    software: 'software versions and their known vulnerabilities',
    wordpress: 'WordPress, its plugins and themes',
    exposure: 'exposed files and folders',
  } as Readonly<Record<string, string>>,
  stepsIntro: 'To let the scanner in:',
  again: 'Then run the scan again: the report will grade your site itself, not the page that stopped the scanner.',
  noGuide: 'Allow the scanner in your firewall or bot-protection settings.',
} as const;

export const gradeCapContent = {
  heading: 'Why the grade stops here',
} as const;
