/** How long and how many SSE events a stream keeps for `Last-Event-ID` (the newest stay). */
export interface StreamEventLimits {
  retentionMs: number;
  maxPerStream: number;
}
