import { content } from '../../../config/content';
import { retained } from '../retention';
import { formatLegalDate, LegalPage, type LegalSection } from './legal-page';

const link = 'text-blue-700 underline underline-offset-4 dark:text-blue-400';

/** SPEC §9 "Privacy and retention": how long each kind of record is kept, from the periods the product keeps them by. */
export const retentionPeriods = [
  ['Contact information', `${retained.contactDetails} after your last interaction with us`],
  ['Audit results', retained.auditResults],
  ['Technical logs: server logs (errors, and the requests our services handled)', retained.functionLogs],
  ['Technical logs: API access logs (address, time, route and browser of each request)', retained.apiAccessLogs],
  ['Technical logs: website access logs (address, time, page and browser of each request)', retained.siteAccessLogs],
  ['Technical logs: endpoint agent reports, agent install progress and text message delivery records', retained.agentAndDeliveryRecords],
  ['Marketing preferences', 'Until you unsubscribe or withdraw consent'],
  ['Legal and financial records', 'Typically 7 years, as the law requires'],
] as const;

/** SPEC §9: response times. */
export const responseTimes = [
  ['Notifying the regulator of an eligible data breach', 'within 72 hours of becoming aware of it'],
  ['Answering a request to use your privacy rights', 'within 30 days'],
  ['Investigating a complaint', 'within 30 days'],
  ['Emergency privacy matters', 'within 24 hours'],
] as const;

export const PRIVACY_REVIEW_INTERVAL_DAYS = 365;
const DAY_MS = 86_400_000;

/** SPEC §2 "Privacy page": ten sections, one entity (DECISIONS: an Australian business under the Privacy Act 1988, serving customers worldwide). */
export function PrivacyPolicy() {
  const { productName, legal } = content;
  const effective = new Date(legal.effectiveDate);
  const nextReview = new Date(effective.getTime() + PRIVACY_REVIEW_INTERVAL_DAYS * DAY_MS);
  const email = (
    <a href={`mailto:${legal.privacyEmail}`} className={link}>
      {legal.privacyEmail}
    </a>
  );

  const sections: LegalSection[] = [
    {
      id: 'about',
      title: 'About this policy',
      body: (
        <>
          <p>
            {productName} is an Australian business that provides website security assessments to customers in Australia and around the
            world. We are bound by the <i>Privacy Act 1988</i> (Cth) and the Australian Privacy Principles (APPs), and this policy
            explains how we handle your personal information under them, wherever you are.
          </p>
          <p>In this policy, "we", "us" and "our" mean {legal.entity}, and "you" means anyone whose personal information we handle.</p>
        </>
      ),
    },
    {
      id: 'information-collected',
      title: 'Personal information we collect',
      body: (
        <>
          <h3>Information you provide directly</h3>
          <ul>
            <li>first and last name, business name, email address and mobile phone number;</li>
            <li>business address and website URL;</li>
            <li>domain ownership details (such as a verification code sent to your email, or a DNS record you publish);</li>
            <li>assessment preferences and communication preferences.</li>
          </ul>
          <h3>Information collected automatically</h3>
          <ul>
            <li>IP address and approximate location derived from it;</li>
            <li>browser and device type;</li>
            <li>usage analytics about how our site is used;</li>
            <li>the results of the scans you request;</li>
            <li>server and security logs.</li>
          </ul>
          <h3>Information from third parties</h3>
          <ul>
            <li>public information about your website and domain (DNS records, certificates, the software your site reveals);</li>
            <li>whether your business email address appears in known data breaches, from breach-notification services;</li>
            <li>payment confirmations from our payment provider (we never receive or store your full card number).</li>
          </ul>
        </>
      ),
    },
    {
      id: 'how-we-use',
      title: 'How we use your information',
      body: (
        <>
          <h3>Primary purposes</h3>
          <ul>
            <li>confirming you are authorised to have a website tested, and running the assessment;</li>
            <li>creating your client account and sending you a link to choose its password, and your reports;</li>
            <li>providing paid audits and monitoring, including alerts by email and SMS;</li>
            <li>processing payments and keeping the records the law requires.</li>
          </ul>
          <h3>Secondary purposes</h3>
          <ul>
            <li>keeping the service secure and preventing abuse (for example, rate limits and bot detection);</li>
            <li>improving our checks and the accuracy of our reports;</li>
            <li>sending you news about our services, only if you have agreed to receive it.</li>
          </ul>
          <h3>Consent</h3>
          <p>
            By ticking the consent boxes on our form you agree to us collecting and using your information for these purposes. You can
            withdraw consent to marketing at any time; withdrawing consent to the primary purposes means we can no longer provide the
            service to you.
          </p>
        </>
      ),
    },
    {
      id: 'disclosure',
      title: 'Disclosure of your information',
      body: (
        <>
          <p>We do not sell your personal information. We disclose it only:</p>
          <ul>
            <li>
              to <strong>service providers</strong> who help us run the service — cloud hosting and storage, email and SMS delivery,
              payment processing and breach-lookup services — under contracts that require them to protect it;
            </li>
            <li>
              where the <strong>law</strong> requires or authorises it, for example to a court, regulator or law-enforcement agency;
            </li>
            <li>to anyone you choose to share a report with, using a share link you create.</li>
          </ul>
          <h3>Overseas disclosure</h3>
          <p>
            Some of our service providers store or process information outside Australia, in the <strong>United States</strong>, the{' '}
            <strong>European Union</strong> and <strong>Singapore</strong>. We take reasonable steps, as APP 8 requires, to make sure they
            handle it consistently with the Australian Privacy Principles.
          </p>
        </>
      ),
    },
    {
      id: 'security-and-storage',
      title: 'Security and storage',
      body: (
        <>
          <h3>Security measures</h3>
          <ul>
            <li>encryption in transit (HTTPS) and at rest;</li>
            <li>role-based access controls, so staff and systems reach only the data they need;</li>
            <li>verification codes stored only as salted hashes, and share links that expire;</li>
            <li>security monitoring and logging of access to our systems.</li>
          </ul>
          <h3>Retention</h3>
          <table className="w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Information
                </th>
                <th scope="col" className="py-2 font-semibold">
                  Kept for
                </th>
              </tr>
            </thead>
            <tbody>
              {retentionPeriods.map(([kind, period]) => (
                <tr key={kind} className="border-b border-slate-200 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-4 font-normal">
                    {kind}
                  </th>
                  <td className="py-2">{period}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>When a period ends, the information is deleted or de-identified.</p>
          <h3>Breach response</h3>
          <p>
            If a data breach is likely to cause serious harm, we follow the Notifiable Data Breaches scheme: we contain it, assess it, and
            notify the Office of the Australian Information Commissioner (OAIC) within 72 hours of becoming aware of it, and tell the people
            affected as soon as we can, with steps they can take.
          </p>
        </>
      ),
    },
    {
      id: 'your-rights',
      title: 'Your privacy rights',
      body: (
        <>
          <p>You have the right to:</p>
          <ul>
            <li>
              <strong>access</strong> the personal information we hold about you;
            </li>
            <li>
              <strong>correct</strong> information that is inaccurate, out of date or incomplete;
            </li>
            <li>
              <strong>withdraw consent</strong>, for example to marketing, at any time;
            </li>
            <li>
              ask us to <strong>delete</strong> your information, unless the law requires us to keep it;
            </li>
            <li>
              <strong>complain</strong> about how we have handled your information;
            </li>
            <li>
              receive your information in a portable, machine-readable format (<strong>portability</strong>): ask us by email, or, once
              signed in, download it as JSON from your account settings.
            </li>
          </ul>
          <p>Email {email} to use any of these rights. We answer within 30 days and may need to confirm your identity first.</p>
        </>
      ),
    },
    {
      id: 'cookies',
      title: 'Cookies and similar technologies',
      body: (
        <>
          <ul>
            <li>
              <strong>Essential</strong>: keep you signed in and protect the site and forms from abuse. The service does not work without
              them.
            </li>
            <li>
              <strong>Analytics</strong>: measure how the site performs and is used. We use these only in aggregate, to improve the site.
            </li>
            <li>
              <strong>Functional</strong>: remember your choices, such as light or dark mode, in your own browser.
            </li>
          </ul>
          <p>You can clear or block these in your browser settings; blocking essential ones stops sign-in from working.</p>
        </>
      ),
    },
    {
      id: 'contact',
      title: 'Contact and complaints',
      body: (
        <>
          <p>Contact our privacy officer at {email} with any question, request or complaint.</p>
          <table className="w-full border-collapse text-left text-sm">
            <caption className="mb-2 text-left font-semibold text-slate-900 dark:text-white">How quickly we respond</caption>
            <tbody>
              {responseTimes.map(([what, when]) => (
                <tr key={what} className="border-b border-slate-200 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-4 font-normal">
                    {what}
                  </th>
                  <td className="py-2">{when}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            If you are not satisfied with our response, you can complain to the Office of the Australian Information Commissioner (OAIC) at
            oaic.gov.au, or to the data-protection authority where you live.
          </p>
        </>
      ),
    },
    {
      id: 'policy-updates',
      title: 'Changes to this policy',
      body: (
        <p>
          We review this policy at least once a year and update it when our practices change. This is version {legal.privacyPolicyVersion},
          effective {formatLegalDate(effective)}; its next review is due by {formatLegalDate(nextReview)}. The current version is always on
          this page.
        </p>
      ),
    },
    {
      id: 'definitions',
      title: 'Definitions',
      body: (
        <ul>
          <li>
            <strong>Personal information</strong>: information or an opinion about an identified individual, or an individual who is
            reasonably identifiable (as defined in the Privacy Act 1988).
          </li>
          <li>
            <strong>Assessment</strong> or <strong>scan</strong>: the automated security checks we run against a website you ask us to
            test.
          </li>
          <li>
            <strong>Audit results</strong>: the report an assessment produces, including its findings, score and grade.
          </li>
          <li>
            <strong>Eligible data breach</strong>: unauthorised access to, disclosure or loss of personal information that is likely to
            result in serious harm (as defined in the Privacy Act 1988).
          </li>
          <li>
            <strong>APPs</strong>: the Australian Privacy Principles in Schedule 1 of the Privacy Act 1988.
          </li>
        </ul>
      ),
    },
  ];

  return (
    <LegalPage
      title="Privacy Policy"
      meta={
        <>
          Version {legal.privacyPolicyVersion} · Effective {formatLegalDate(effective)} · Next review {formatLegalDate(nextReview)}
        </>
      }
      intro={
        <p>
          Your privacy matters to us. This policy explains what personal information {productName} collects, why, who we share it with,
          how long we keep it and the rights you have.
        </p>
      }
      sections={sections}
    />
  );
}
