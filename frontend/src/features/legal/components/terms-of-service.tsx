import { Link } from 'react-router';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import { retained } from '../retention';
import { formatLegalDate, LegalPage, type LegalSection } from './legal-page';

const link = 'text-blue-700 underline underline-offset-4 dark:text-blue-400';

/** SPEC §2 "Terms page": seven sections, and the two buttons home. */
export function TermsOfService() {
  const { productName, legal } = content;
  const sections: LegalSection[] = [
    {
      id: 'service-description',
      title: 'Service description',
      body: (
        <>
          <p>
            {productName} is a website security-assessment service for businesses. When you submit a website address and your
            business details, we scan the publicly reachable parts of that website and its domain and give you a security report. The
            free scan looks at:
          </p>
          <ul>
            <li>software and versions your site reveals, matched against known vulnerabilities (CVEs) with their CVSS scores;</li>
            <li>common network ports and the services that answer on them, and whether a firewall filters the rest;</li>
            <li>whether your business email address appears in known data breaches;</li>
            <li>subdomains, DNS records, SSL/TLS configuration and certificates, email protection (SPF, DKIM, DMARC), security headers and WordPress.</li>
          </ul>
          <p>
            Paid audits go deeper and monthly plans re-scan your verified domains on a schedule, as described on the pricing section of our
            home page. Prices are in Australian dollars.
          </p>
        </>
      ),
    },
    {
      id: 'data-collection',
      title: 'Data collection and privacy',
      body: (
        <>
          <p>
            To run an assessment we collect your name, business name, email address, mobile number and website address, and we record the
            results of the scan. We create a client account for you and email you a link to choose its password so you can see your reports.
          </p>
          <p>
            How we collect, use, store and disclose personal information is set out in our{' '}
            <Link to={paths.privacy.getHref()} className={link}>
              Privacy Policy
            </Link>
            , which forms part of these terms.
          </p>
        </>
      ),
    },
    {
      id: 'consent-and-authorization',
      title: 'Consent and authorization',
      body: (
        <>
          <p>
            A security scan sends network traffic to the website you name. You may only submit a website that you own or that you are
            authorised to have tested. By submitting the form you confirm that you have that authority.
          </p>
          <p>
            We check this before we scan: a scan starts at once only when your email address belongs to the website's domain, and it
            stays a passive scan until you type the code we email to that address; otherwise we email you a verification code first.
            We may refuse or stop any scan we believe is not authorised.
          </p>
          <p>
            Our scans are non-destructive: they make ordinary connections and read-only requests, they do not attempt to log in, exploit a
            vulnerability or change anything on your systems.
          </p>
        </>
      ),
    },
    {
      id: 'limitations',
      title: 'Limitations',
      body: (
        <>
          <p>
            A scan reports what could be observed from the internet at the time it ran. It cannot find every weakness, and a report with
            no findings does not mean a website is secure. Findings such as software versions may be affected by backported fixes that
            are not visible from outside.
          </p>
          <p>
            Our reports are information to help you improve your security; they are not legal, compliance or professional advice. You are
            responsible for the changes you make to your systems.
          </p>
          <p>
            Nothing in these terms excludes, restricts or modifies any consumer guarantee, right or remedy you have under the Australian
            Consumer Law or any other law that cannot be excluded. Otherwise, to the extent the law allows, our liability for any claim
            relating to the service is limited to supplying the service again or refunding what you paid for it.
          </p>
        </>
      ),
    },
    {
      id: 'retention-and-security',
      title: 'Retention and security',
      body: (
        <>
          <p>
            We keep audit results for {retained.auditResults}, server logs for {retained.functionLogs}, access logs for{' '}
            {retained.accessLogs} and your contact details for {retained.contactDetails} after your last interaction with us, unless the
            law requires us to keep records longer. The{' '}
            <Link to={paths.privacy.getHref()} className={link}>
              Privacy Policy
            </Link>{' '}
            lists every retention period.
          </p>
          <p>
            Your data is encrypted in transit and at rest, access is limited to the people and systems that need it, and reports you share
            are reachable only through links that expire.
          </p>
        </>
      ),
    },
    {
      id: 'contact-and-complaints',
      title: 'Contact and complaints',
      body: (
        <>
          <p>
            Questions about these terms or the service: <a href={`mailto:${legal.supportEmail}`} className={link}>{legal.supportEmail}</a>.
            Privacy questions and complaints: <a href={`mailto:${legal.privacyEmail}`} className={link}>{legal.privacyEmail}</a>.
          </p>
          <p>
            We acknowledge complaints promptly and aim to resolve them within 30 days. If you are not satisfied with how we handled a privacy
            complaint, you can contact the Office of the Australian Information Commissioner (OAIC).
          </p>
        </>
      ),
    },
    {
      id: 'agreement',
      title: 'Agreement',
      body: (
        <>
          <p>
            By submitting a website for assessment or using your client account you agree to these terms. We may update them; the version
            in force is always on this page with its effective date.
          </p>
          <p>These terms are governed by the laws of Australia.</p>
        </>
      ),
    },
  ];

  return (
    <LegalPage
      title="Terms of Service"
      meta={<>Effective {formatLegalDate(new Date(legal.effectiveDate))}</>}
      intro={
        <p>
          These terms apply to the {productName} website and security-assessment service, provided by {legal.entity} to customers in
          Australia and around the world.
        </p>
      }
      sections={sections}
    />
  );
}
