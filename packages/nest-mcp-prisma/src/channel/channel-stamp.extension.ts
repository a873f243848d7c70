import { Prisma } from '@prisma/client/extension';
import { API_CHANNEL, McpChannel, type ChannelResolver } from './mcp-channel.js';

/** What `channelStampExtension` reads of the application's generated `Prisma` namespace. */
export interface GeneratedPrismaNamespace {
  ModelName: Record<string, string>;
}

type Data = Record<string, unknown>;

/**
 * A Prisma client extension that stamps `createdVia` / `updatedVia` on every write of a model
 * that has both fields (the application opts a model in by adding them), with the channel of
 * the running code: `mcp` inside an MCP call, else `channel()` (default: `api`). No service
 * passes it by hand and none can forget it.
 *
 * `prisma`: the application's generated `Prisma` namespace, whose `<Model>ScalarFieldEnum`
 * objects say which models carry the fields.
 */
export function channelStampExtension(prisma: GeneratedPrismaNamespace, channel: ChannelResolver = API_CHANNEL) {
  const fieldsOf = (model: string) => (prisma as unknown as Record<string, Record<string, string> | undefined>)[`${model}ScalarFieldEnum`];
  const stamped = new Set(
    Object.values(prisma.ModelName).filter((model) => {
      const fields = fieldsOf(model);
      return !!fields && 'createdVia' in fields && 'updatedVia' in fields;
    }),
  );
  const via = () => McpChannel.of(channel);
  const stampCreate = (data: Data) => ({ ...data, createdVia: via(), updatedVia: via() });
  const stampUpdate = (data: Data) => ({ ...data, updatedVia: via() });
  return Prisma.defineExtension({
    name: 'nest-mcp-channel-stamp',
    query: {
      $allModels: {
        async create({ model, args, query }) {
          if (stamped.has(model)) args.data = stampCreate(args.data as Data);
          return query(args);
        },
        async createMany({ model, args, query }) {
          if (stamped.has(model)) {
            const rows = Array.isArray(args.data) ? args.data : [args.data];
            args.data = rows.map((row) => stampCreate(row as Data));
          }
          return query(args);
        },
        async update({ model, args, query }) {
          if (stamped.has(model)) args.data = stampUpdate(args.data as Data);
          return query(args);
        },
        async updateMany({ model, args, query }) {
          if (stamped.has(model)) args.data = stampUpdate(args.data as Data);
          return query(args);
        },
        async upsert({ model, args, query }) {
          if (stamped.has(model)) {
            args.create = stampCreate(args.create as Data);
            args.update = stampUpdate(args.update as Data);
          }
          return query(args);
        },
      },
    },
  });
}
