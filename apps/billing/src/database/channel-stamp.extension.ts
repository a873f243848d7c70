import { Prisma } from '../generated/prisma/client.js';
import { RequestContext } from '../context/request-context.js';

/** Models that carry `createdVia` / `updatedVia`, read from the generated client, not listed by hand. */
const STAMPED_MODELS = new Set(
  Object.values(Prisma.ModelName).filter((model) => {
    const fields = (Prisma as unknown as Record<string, Record<string, string> | undefined>)[`${model}ScalarFieldEnum`];
    return !!fields && 'createdVia' in fields && 'updatedVia' in fields;
  }),
);

function channel(): string {
  const channel = RequestContext.current()?.channel;
  if (!channel)
    throw new Error('A domain row was written outside a request context (or in one opened only for logging): its channel is unknown');
  return channel;
}

type Data = Record<string, unknown>;
const stampCreate = (data: Data) => ({ ...data, createdVia: channel(), updatedVia: channel() });
const stampUpdate = (data: Data) => ({ ...data, updatedVia: channel() });

/**
 * Stamps `created_via` / `updated_via` on every write of a domain model with the channel of the
 * current request (`mcp`, `api`, `panel`), so no service passes it by hand and none can forget.
 */
export const channelStampExtension = Prisma.defineExtension({
  name: 'channel-stamp',
  query: {
    $allModels: {
      async create({ model, args, query }) {
        if (STAMPED_MODELS.has(model)) args.data = stampCreate(args.data) as typeof args.data;
        return query(args);
      },
      async createMany({ model, args, query }) {
        if (STAMPED_MODELS.has(model)) {
          const rows = Array.isArray(args.data) ? args.data : [args.data];
          args.data = rows.map((row) => stampCreate(row as Data)) as typeof args.data;
        }
        return query(args);
      },
      async update({ model, args, query }) {
        if (STAMPED_MODELS.has(model)) args.data = stampUpdate(args.data);
        return query(args);
      },
      async updateMany({ model, args, query }) {
        if (STAMPED_MODELS.has(model)) args.data = stampUpdate(args.data);
        return query(args);
      },
      async upsert({ model, args, query }) {
        if (STAMPED_MODELS.has(model)) {
          args.create = stampCreate(args.create) as typeof args.create;
          args.update = stampUpdate(args.update);
        }
        return query(args);
      },
    },
  },
});
