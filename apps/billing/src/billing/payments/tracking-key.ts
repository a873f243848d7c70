/** A candidate at or above this confidence identifies the payment on its own. */
export const TRACKING_KEY_CONFIDENCE = 0.8;

export interface TrackingKeyCandidate {
  value: string;
  source: string;
  confidence: number;
}

/** What the evidence says about the payment's tracking key. */
export type TrackingKeyDecision =
  | { kind: 'identified'; value: string }
  | { kind: 'ambiguous'; reason: 'none' | 'low_confidence' | 'conflicting'; candidates: TrackingKeyCandidate[] };

/** Two readings of one key compare equal whatever their case and spacing ("2606 0401" = "26060401"). */
export function normalizeTrackingKey(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/**
 * Picks the tracking key from the evidence: identified when every candidate at or above the
 * confidence threshold names the same key (the most confident reading of it wins), ambiguous
 * when none reaches the threshold or two confident candidates disagree. The candidates of an
 * ambiguous answer are distinct keys, most confident first, for the question to the user.
 */
export function decideTrackingKey(candidates: readonly TrackingKeyCandidate[], threshold = TRACKING_KEY_CONFIDENCE): TrackingKeyDecision {
  const distinct = distinctByKey(candidates);
  const confident = distinct.filter((candidate) => candidate.confidence >= threshold);
  if (confident.length === 1) return { kind: 'identified', value: confident[0].value.trim() };
  if (confident.length > 1) return { kind: 'ambiguous', reason: 'conflicting', candidates: distinct };
  return { kind: 'ambiguous', reason: distinct.length ? 'low_confidence' : 'none', candidates: distinct };
}

/** One entry per key (normalized), keeping its most confident reading; most confident first. */
function distinctByKey(candidates: readonly TrackingKeyCandidate[]): TrackingKeyCandidate[] {
  const byKey = new Map<string, TrackingKeyCandidate>();
  for (const candidate of candidates) {
    const key = normalizeTrackingKey(candidate.value);
    if (!key) continue;
    const seen = byKey.get(key);
    if (!seen || candidate.confidence > seen.confidence) byKey.set(key, candidate);
  }
  return [...byKey.values()].sort((a, b) => b.confidence - a.confidence);
}
