import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesMailer } from '../adapters/ses-mailer.adapter.js';
import { required } from '../config.js';
import { clientConfig, traced } from './aws.js';
import type { Provider } from './core.js';

export const provide: Provider = ({ config, metrics }) => ({
  mailer: () =>
    new SesMailer(traced(new SESv2Client(clientConfig(config, config.SES_ENDPOINT)), config.SES_ENDPOINT), required(config, 'MAIL_FROM'), config.SES_CONFIGURATION_SET, metrics),
});
