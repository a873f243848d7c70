import { flushLogs } from '../../src/observability/log-writer.js';
const LOG_LINE = /^(\{"level":|\[Nest\] |\x1b\[3\dm\[Nest\])/;
export function captureOutput() {
    flushLogs();
    let captured = '';
    let logLines = '';
    const originals = { stdout: process.stdout.write, stderr: process.stderr.write };
    for (const name of ['stdout', 'stderr']) {
        const stream = process[name];
        const original = originals[name];
        stream.write = function (chunk, ...rest) {
            const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
            captured += text;
            if (LOG_LINE.test(text)) {
                logLines += text.endsWith('\n') ? text : `${text}\n`;
                const callback = rest.find((arg) => typeof arg === 'function');
                callback?.();
                return true;
            }
            return original.call(stream, chunk, ...rest);
        };
    }
    return {
        text: () => {
            flushLogs();
            return captured;
        },
        records: () => (flushLogs(), logLines)
            .split('\n')
            .filter((line) => line.startsWith('{"level":'))
            .map((line) => JSON.parse(line)),
        clear: () => {
            flushLogs();
            captured = '';
            logLines = '';
        },
        restore: () => {
            flushLogs();
            process.stdout.write = originals.stdout;
            process.stderr.write = originals.stderr;
        },
    };
}
//# sourceMappingURL=log-capture.js.map