/**
 * Decides from the row another call left. Expiry is checked first: an expired key is free
 * whatever arguments it had. A different arguments hash is refused before the answer is looked
 * at, so a mismatched call never sees what the first call answered.
 */
export function nextStep(row, argumentsHash) {
    if (!row)
        return { kind: 'retry' };
    if (row.expired)
        return { kind: 'reuse_expired' };
    if (row.argumentsHash !== argumentsHash)
        return { kind: 'mismatch' };
    // Null only when the first call claimed outside a transaction and is still running (see the store).
    if (row.resultJson === null)
        return { kind: 'retry' };
    return { kind: 'replay', result: JSON.parse(row.resultJson) };
}
//# sourceMappingURL=idempotency-claim.js.map