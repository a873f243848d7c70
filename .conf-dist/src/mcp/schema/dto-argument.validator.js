import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
/**
 * Validates tool or prompt arguments with the same DTO class that produced the schema, and
 * returns the transformed instance the handler receives (as `@Body()` would over HTTP).
 */
export async function validateArguments(dto, args, options) {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        return { ok: false, violations: [{ field: '', message: 'arguments must be a JSON object' }] };
    }
    const instance = plainToInstance(dto, args);
    const errors = await validate(instance, {
        whitelist: true,
        forbidNonWhitelisted: options.forbidUnknown,
        forbidUnknownValues: true,
        validationError: { target: false, value: false },
    });
    return errors.length ? { ok: false, violations: flatten(errors, '') } : { ok: true, value: instance };
}
function flatten(errors, parent) {
    return errors.flatMap((error) => {
        const field = /^\d+$/.test(error.property)
            ? `${parent}[${error.property}]`
            : parent
                ? `${parent}.${error.property}`
                : error.property;
        const own = Object.values(error.constraints ?? {}).map((message) => ({
            field,
            message: rephrase(message, error.property, field),
        }));
        return [...own, ...flatten(error.children ?? [], field)];
    });
}
/**
 * class-validator names the bare property ("amount must be a positive number"); name the full
 * path instead, and turn "property x should not exist" into what to do about it.
 */
function rephrase(message, property, field) {
    if (message.endsWith('should not exist'))
        return `\`${field}\` is not an accepted argument; remove it`;
    if (message.startsWith(`${property} `))
        return `\`${field}\`${message.slice(property.length)}`;
    if (message.startsWith(`each value in ${property} `)) {
        return `each value in \`${field}\`${message.slice(`each value in ${property}`.length)}`;
    }
    return message;
}
//# sourceMappingURL=dto-argument.validator.js.map