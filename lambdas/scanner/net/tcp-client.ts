export type PortState = 'open' | 'closed' | 'filtered';

export interface TcpProbeResult {
  port: number;
  state: PortState;
  /** What the service said first, or in answer to a protocol-appropriate nudge (open ports only). */
  banner?: string;
  rttMs?: number;
}

/** TCP connect scan and banner grab. Connects only to guarded addresses. */
export interface TcpClient {
  probe(address: string, port: number, options: { timeoutMs: number; bannerTimeoutMs?: number; grabBanner?: boolean; signal?: AbortSignal }): Promise<TcpProbeResult>;
}
