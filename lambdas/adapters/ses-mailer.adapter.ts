import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { Metrics } from '../domain/metrics.port.js';
import type { EmailMessage, Mailer } from '../domain/ports.js';

/**
 * SES v2 simple content. Attachments go in the simple content's `Attachments` (SES builds the MIME
 * message itself, and aws-ses-v2-local stores them the same way), so no hand-made raw MIME is needed.
 */
export class SesMailer implements Mailer {
  constructor(
    private readonly ses: SESv2Client,
    private readonly from: string,
    private readonly configurationSet?: string,
    /** EmailsSent / EmailsFailed: every send SES accepted or refused (bounces and complaints come from SES itself). */
    private readonly metrics?: Pick<Metrics, 'emailSent' | 'emailFailed'>,
  ) {}

  async send(message: EmailMessage): Promise<{ messageId: string }> {
    try {
      const sent = await this.sendOnce(message);
      this.metrics?.emailSent();
      return sent;
    } catch (error) {
      this.metrics?.emailFailed();
      throw error;
    }
  }

  private async sendOnce(message: EmailMessage): Promise<{ messageId: string }> {
    const result = await this.ses.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [message.to] },
        ...(message.replyTo ? { ReplyToAddresses: [message.replyTo] } : {}),
        ConfigurationSetName: this.configurationSet,
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              ...(message.html ? { Html: { Data: message.html, Charset: 'UTF-8' } } : {}),
            },
            ...(message.attachments?.length
              ? {
                  Attachments: message.attachments.map((file) => ({
                    FileName: file.fileName,
                    ContentType: file.contentType,
                    ContentDisposition: 'ATTACHMENT' as const,
                    ContentTransferEncoding: 'BASE64' as const,
                    RawContent: file.content,
                  })),
                }
              : {}),
          },
        },
      }),
    );
    return { messageId: result.MessageId ?? '' };
  }
}
