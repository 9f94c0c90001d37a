import { mailbox } from '../../support/post-from.js';

/** The temporary password a lead-created account was emailed (SES local), waited for up to 15 s. */
export async function temporaryPasswordOf(mailboxUrl: string, email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mail = (await mailbox(mailboxUrl, email)).find((m) => /login details/.test(m.subject));
    const password = /Temporary password: (\S+)/.exec(mail?.body.text ?? '')?.[1];
    if (password) return password;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no login details were mailed to ${email}`);
}
