/**
 * Default error pages sign themselves: Apache's `<address>Apache/2.4.71 (Debian) Server at … Port 80</address>`,
 * nginx's `<center>nginx/1.22.1</center>`, IIS's "IIS 10.0 Detailed Error", Tomcat's `<h3>Apache Tomcat/9.0.65</h3>`,
 * ASP.NET's "Version Information". The check asks for one random path that does not exist and reads
 * the answer; a site with its own error page shows none of these.
 */
import { productTokenSightings, sighting } from './headers.js';
import type { Sighting } from './types.js';

/** The answer to the random path. */
export interface ErrorPage {
  url: string;
  status: number;
  body: string;
}

/** Sightings from an error page's default signature (any status: a soft 404 simply matches none). */
export function errorPageSightings({ url, body }: ErrorPage): Sighting[] {
  const where = `error page of ${url}`;
  const found: Sighting[] = [];
  const text = body.slice(0, 64 * 1024);

  // Apache (ServerSignature On): the same product tokens as its Server header.
  const apache = /<address>\s*([^<]*?)\s+Server at\s+[^<]*?Port\s+\d+\s*<\/address>/i.exec(text);
  if (apache) found.push(...productTokenSightings(apache[1]!, { source: 'error-page', where, confidence: 'high', firstCategory: 'web-server' }));

  // nginx and OpenResty: "<hr><center>nginx/1.22.1</center>".
  const nginx = /<hr\s*\/?>\s*<center>\s*((?:nginx|openresty)(?:\/[\w.]+)?)\s*<\/center>/i.exec(text);
  if (nginx) found.push(...productTokenSightings(nginx[1]!, { source: 'error-page', where, confidence: 'high', firstCategory: 'web-server' }));

  // IIS detailed errors name the release; its plain 404 page only the product.
  const iis = /<title>\s*IIS\s+(\d+\.\d+)\s+Detailed Error/i.exec(text);
  if (iis) found.push(sighting({ name: 'Microsoft IIS', version: iis[1]!, category: 'web-server', confidence: 'high', source: 'error-page', where, value: iis[0].replace(/<title>\s*/i, '') }));
  else if (/<h2>\s*404 - File or directory not found\.\s*<\/h2>/i.test(text) && /Server Error/i.test(text)) {
    found.push(sighting({ name: 'Microsoft IIS', category: 'web-server', confidence: 'medium', source: 'error-page', where, value: '404 - File or directory not found.' }));
  }

  // ASP.NET's error page: "Microsoft .NET Framework Version:4.0.30319; ASP.NET Version:4.8.4330.0".
  const aspnet = /ASP\.NET Version:\s*(\d+(?:\.\d+)+)/i.exec(text);
  if (aspnet) found.push(sighting({ name: 'ASP.NET', version: aspnet[1]!, category: 'framework', confidence: 'high', source: 'error-page', where, value: aspnet[0] }));

  // Tomcat's error report: "<h3>Apache Tomcat/9.0.65</h3>" (or in the title on old releases).
  const tomcat = /<h3>\s*Apache Tomcat\/(\d[\w.-]*)\s*<\/h3>|<title>\s*Apache Tomcat\/(\d[\w.-]*)/i.exec(text);
  if (tomcat) {
    const version = tomcat[1] ?? tomcat[2]!;
    found.push(sighting({ name: 'Apache Tomcat', version, category: 'web-server', confidence: 'high', source: 'error-page', where, value: `Apache Tomcat/${version}` }));
  }

  const jetty = /Powered by Jetty:\/\/\s*(\d[\w.-]*)/i.exec(text);
  if (jetty) found.push(sighting({ name: 'Jetty', version: jetty[1]!, category: 'web-server', confidence: 'high', source: 'error-page', where, value: jetty[0] }));

  return found;
}
