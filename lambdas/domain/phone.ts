import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/** Rampart sells in Australia first: a number typed without "+" is read as Australian. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'AU';

/**
 * DECISIONS "Mobile numbers": a mobile number in E.164 (+61412345678), or undefined when the input
 * is not a valid mobile number. The mobile metadata rejects landlines, so SMS only goes to phones.
 */
export function toE164Mobile(input: string, defaultCountry: CountryCode = DEFAULT_PHONE_COUNTRY): string | undefined {
  const text = input.trim();
  if (text.length === 0 || text.length > 40) return undefined;
  // extract: false — the whole input must be the number, not a number found somewhere in a text.
  const number = parsePhoneNumberFromString(text, { defaultCountry, extract: false });
  if (!number || !number.isValid() || number.ext) return undefined;
  return number.number;
}

/** The country (ISO 3166 alpha-2) of a stored mobile number, for the platform statistics; undefined when it is not one. */
export function countryOfMobile(e164: string | undefined): string | undefined {
  if (!e164) return undefined;
  return parsePhoneNumberFromString(e164, { extract: false })?.country;
}

/**
 * Whether an SMS may go to this number: its country is one of `countries` (ISO 3166 alpha-2, the
 * setting SMS_COUNTRIES). SNS has no IAM condition per destination country, so this is where SMS
 * pumping (paid texts to premium numbers abroad) is stopped: a number of another country, or one
 * that is not a number at all, gets no SMS.
 */
export function smsCountryAllowed(e164: string, countries: readonly string[]): boolean {
  const country = countryOfMobile(e164);
  return country !== undefined && countries.includes(country);
}
