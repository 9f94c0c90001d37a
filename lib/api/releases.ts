import { Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** The alias API Gateway invokes: the version that serves. */
export const LIVE_ALIAS = 'live';

/**
 * A new version of an API function takes 10% of its requests for 5 minutes, then all of them; an alarm
 * during those minutes (or the traffic shift's own failure) sends all back to the previous version.
 */
export const CANARY_DEPLOYMENT = LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES;

export interface ReleasesProps {
  /** Deploy setting `canary` (lib/stack-config.ts): on = CodeDeploy shifts the alias; off = CloudFormation moves it at once. */
  readonly canary: boolean;
}

/**
 * How the API functions' new code reaches traffic (issue 30 item 7): each function serves through its
 * alias `live`, which points at the version the deploy published. With the canary on, CodeDeploy moves
 * the alias (one application, one service role for all the groups) and rolls back on the alarms given
 * to `rollbackOn`: the function's error alarm, so a version that fails where the old one did not stops
 * at 10% of the requests for a few minutes instead of all of them.
 */
export class Releases extends Construct {
  readonly aliases = new Map<LambdaFunction, Alias>();
  readonly deploymentGroups = new Map<LambdaFunction, LambdaDeploymentGroup>();
  private readonly canary: boolean;
  private application?: LambdaApplication;
  private role?: Role;

  constructor(scope: Construct, id: string, props: ReleasesProps) {
    super(scope, id);
    this.canary = props.canary;
  }

  /** The function's alias `live` (what its integration invokes), with its deployment group when the canary is on. */
  live(key: string, fn: LambdaFunction): Alias {
    const alias = new Alias(this, `${key}Live`, { aliasName: LIVE_ALIAS, version: fn.currentVersion });
    this.aliases.set(fn, alias);
    if (this.canary) {
      this.application ??= new LambdaApplication(this, 'Application');
      this.role ??= this.serviceRole();
      const group = new LambdaDeploymentGroup(this, `${key}Deployment`, {
        application: this.application,
        alias,
        deploymentConfig: CANARY_DEPLOYMENT,
        role: this.role,
        autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
      });
      this.deploymentGroups.set(fn, group);
    }
    return alias;
  }

  /** Rolls a deployment of the function back when one of these alarms fires during it. */
  rollbackOn(fn: LambdaFunction, ...alarms: IAlarm[]): void {
    const group = this.deploymentGroups.get(fn);
    for (const alarm of alarms) group?.addAlarm(alarm);
  }

  private serviceRole(): Role {
    const role = new Role(this, 'DeployRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      description: 'CodeDeploy: shifts the API functions\' live aliases and reads their rollback alarms',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "AWS's own policy for CodeDeploy's Lambda deployments: it updates aliases, reads the alarms and invokes only functions named CodeDeployHook_* (none here).",
    });
    return role;
  }
}
