/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, synthProduct } from './synth.js';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
type Resources = Record<string, Resource>;
type Statement = { Sid?: string; Effect: string; Principal?: any; Action: string | string[]; Resource?: unknown; Condition?: Record<string, Record<string, unknown>> };

let resources: Resources;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const actionsOf = (st: Statement) => [st.Action].flat();

beforeAll(() => {
  // Prepare: one synth of the product without bundling (the template's IAM, policies and settings are the same).
  const { template } = synthProduct({ frontendDist: null, context: { 'aws:cdk:bundling-stacks': [] } });
  resources = (template.toJSON() as { Resources: Resources }).Resources;
});

afterAll(removeTempDirs);

describe('alarm delivery (issue 30 item 1)', () => {
  /** The statements of every topic policy attached to the topic `topicId`. */
  const topicStatements = (topicId: string): Statement[] =>
    ofType('AWS::SNS::TopicPolicy')
      .filter(([, p]) => (p.Properties.Topics as unknown[]).some((t) => JSON.stringify(t) === JSON.stringify({ Ref: topicId })))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);

  it("every alarm's SNS action is a topic whose policy lets CloudWatch publish, for this account only", () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(20);
    const targets = new Set<string>();
    for (const [id, alarm] of alarms) {
      const actions = (alarm.Properties.AlarmActions ?? []) as { Ref?: string }[];
      expect(actions.length, id).toBeGreaterThan(0);
      for (const action of actions) {
        expect(action.Ref, `${id}: an action on a topic of this stack`).toBeDefined();
        expect(resources[action.Ref!]?.Type, id).toBe('AWS::SNS::Topic');
        targets.add(action.Ref!);
      }
    }
    for (const topic of targets) {
      const allows = topicStatements(topic).filter(
        (st) => st.Effect === 'Allow' && JSON.stringify(st.Principal) === JSON.stringify({ Service: 'cloudwatch.amazonaws.com' }) && actionsOf(st).includes('sns:Publish'),
      );
      expect(allows, topic).toHaveLength(1);
      expect(allows[0]!.Resource, topic).toEqual({ Ref: topic });
      expect(allows[0]!.Condition?.StringEquals?.['aws:SourceAccount'], topic).toEqual({ Ref: 'AWS::AccountId' });
      // The stack's region is explicit (TEST_DEPLOY_ENV); the account is the deploying one.
      expect(allows[0]!.Condition?.ArnLike?.['aws:SourceArn'], topic).toEqual({
        'Fn::Join': ['', ['arn:aws:cloudwatch:ap-southeast-2:', { Ref: 'AWS::AccountId' }, ':alarm:*']],
      });
    }
  });

  it('keeps the TLS-only Deny, and no Deny that would stop CloudWatch over TLS', () => {
    const topic = ofType('AWS::SNS::Topic').find(([, t]) => t.Properties.DisplayName === 'Operator alarms')![0];
    const denies = topicStatements(topic).filter((st) => st.Effect === 'Deny');
    expect(denies).toHaveLength(1);
    expect(denies[0]!.Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
  });

  it('no other service publishes to a topic of the stack: the alarm topic is the only one', () => {
    // SES events go to CloudWatch dimensions (lib/notify/notify.ts), there are no budgets or EventBridge topic targets.
    expect(ofType('AWS::SNS::Topic').map(([id]) => id)).toHaveLength(1);
    expect(ofType('AWS::Budgets::Budget')).toEqual([]);
    const eventTargets = ofType('AWS::Events::Rule').flatMap(([, r]) => (r.Properties.Targets ?? []) as { Arn: unknown }[]);
    expect(eventTargets.filter((t) => JSON.stringify(t.Arn).includes('Topic'))).toEqual([]);
    const sesDestinations = ofType('AWS::SES::ConfigurationSetEventDestination').map(([, d]) => d.Properties.EventDestination);
    expect(sesDestinations.length).toBeGreaterThan(0);
    for (const destination of sesDestinations) expect(destination.SnsDestination).toBeUndefined();
  });
});
