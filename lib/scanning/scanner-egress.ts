import { Fn, RemovalPolicy, Tags } from 'aws-cdk-lib';
import {
  CfnEIP,
  FlowLogDestination,
  FlowLogTrafficType,
  GatewayVpcEndpointAwsService,
  NatProvider,
  SecurityGroup,
  type SubnetSelection,
  SubnetType,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The NAT gateways (each one Elastic IP, one per Availability Zone) when the deploy does not say. */
export const DEFAULT_SCANNER_NAT_GATEWAYS = 2;

/**
 * The flow log answers an abuse report ("your address connected to mine at …"), which can come weeks
 * after the scan: three months, as long as the API's access log. It holds addresses and ports of
 * scanned sites, no visitor's data.
 */
export const SCANNER_FLOW_LOG_RETENTION = RetentionDays.THREE_MONTHS;

export interface ScannerEgressProps {
  /** How many NAT gateways, each with its own Elastic IP: 2 (one per AZ) or 1 (half the cost, one AZ's path). */
  readonly natGateways?: number;
}

/**
 * Where the scanner's connections leave from when the deploy asks for fixed addresses
 * (`-c scannerEgress=fixed`, README "Deploy to AWS"): a VPC over two Availability Zones whose private
 * subnets reach the internet only through NAT gateways, each with an Elastic IP allocated here, so
 * the addresses survive a NAT gateway's replacement and can be published on /scanner for site owners
 * to recognise or allowlist.
 *
 * Only the scan worker is placed in it. Table traffic goes through the free gateway endpoints
 * (DynamoDB, S3) rather than the NAT's per-GB charge; the worker's few other AWS calls (SES, SNS,
 * SSM at cold start) go through the NAT: each interface endpoint is billed by the hour in each AZ
 * (about US$0.01 an hour per AZ in us-east-1), far more than their few kilobytes cost through the NAT.
 * The VPC also lets the operator ask AWS to lift the port 25 limit for these addresses (the email
 * check's STARTTLS conversations with MX servers), which AWS does not do for a Lambda outside a VPC.
 */
export class ScannerEgress extends Construct {
  readonly vpc: Vpc;
  /** The Elastic IPs, one per NAT gateway, in NAT gateway order. */
  readonly addresses: readonly CfnEIP[];
  /** Egress to anywhere, no ingress: a Lambda needs no inbound rule to get its responses. */
  readonly securityGroup: SecurityGroup;
  readonly subnets: SubnetSelection = { subnetType: SubnetType.PRIVATE_WITH_EGRESS };

  constructor(scope: Construct, id: string, props: ScannerEgressProps = {}) {
    super(scope, id);
    const natGateways = props.natGateways ?? DEFAULT_SCANNER_NAT_GATEWAYS;
    // Allocated explicitly (not by the NAT gateway construct) so each address is a resource of its
    // own that outlives a NAT gateway's replacement and that the stack output can name.
    this.addresses = Array.from({ length: natGateways }, (_, i) => {
      const eip = new CfnEIP(this, `Address${i + 1}`, { domain: 'vpc' });
      Tags.of(eip).add('Name', `${this.node.path}/Address${i + 1}`);
      return eip;
    });
    const flowLogs = new LogGroup(this, 'FlowLogs', { retention: SCANNER_FLOW_LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
    this.vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways,
      natGatewayProvider: NatProvider.gateway({ eipAllocationIds: this.addresses.map((eip) => eip.attrAllocationId) }),
      subnetConfiguration: [
        { name: 'Public', subnetType: SubnetType.PUBLIC, cidrMask: 24, mapPublicIpOnLaunch: false },
        { name: 'Scanner', subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      ],
      gatewayEndpoints: {
        DynamoDb: { service: GatewayVpcEndpointAwsService.DYNAMODB },
        S3: { service: GatewayVpcEndpointAwsService.S3 },
      },
      flowLogs: {
        Scanner: { destination: FlowLogDestination.toCloudWatchLogs(flowLogs), trafficType: FlowLogTrafficType.ALL },
      },
    });
    this.securityGroup = new SecurityGroup(this, 'ScanWorker', {
      vpc: this.vpc,
      description: 'The scan worker: outbound to any address, no inbound',
      allowAllOutbound: true,
    });
  }

  /** The public addresses, comma-separated (resolved at deploy time). */
  get addressList(): string {
    return Fn.join(',', this.addresses.map((eip) => eip.attrPublicIp));
  }
}
