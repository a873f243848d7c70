import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { channelStampExtension } from './channel-stamp.extension.js';
import { McpChannel } from './mcp-channel.js';

/** What a generated client's `Prisma` namespace says of two models: one opted in, one not. */
const GENERATED = {
  ModelName: { Note: 'Note', Tag: 'Tag' },
  NoteScalarFieldEnum: { id: 'id', title: 'title', createdVia: 'createdVia', updatedVia: 'updatedVia' },
  TagScalarFieldEnum: { id: 'id', name: 'name' },
};

type Hook = (params: { model: string; args: Record<string, any>; query: (args: unknown) => unknown }) => Promise<unknown>;

/** The extension's query hooks, called as Prisma calls them: the arguments after the hook are what `query` receives. */
function hooks(channel?: () => string | undefined): Record<string, Hook> {
  const extension = channelStampExtension(GENERATED, channel) as unknown as (client: unknown) => unknown;
  // Prisma.defineExtension returns a function of the client that registers the definition.
  let definition: { query: { $allModels: Record<string, Hook> } } | undefined;
  extension({ $extends: (given: typeof definition) => (definition = given) });
  return definition!.query.$allModels;
}

const sent = (hook: Hook, model: string, args: Record<string, any>) => hook({ model, args, query: (given) => given });

describe('channelStampExtension', () => {
  it('stamps createdVia and updatedVia on a create inside an MCP call, updatedVia alone on an update', async () => {
    const { create, update, upsert, createMany } = hooks();
    await McpChannel.run('mcp', async () => {
      assert.deepEqual(await sent(create, 'Note', { data: { title: 'a' } }), {
        data: { title: 'a', createdVia: 'mcp', updatedVia: 'mcp' },
      });
      assert.deepEqual(await sent(update, 'Note', { data: { title: 'b' } }), { data: { title: 'b', updatedVia: 'mcp' } });
      assert.deepEqual(await sent(upsert, 'Note', { create: { title: 'c' }, update: { title: 'c' } }), {
        create: { title: 'c', createdVia: 'mcp', updatedVia: 'mcp' },
        update: { title: 'c', updatedVia: 'mcp' },
      });
      assert.deepEqual(await sent(createMany, 'Note', { data: [{ title: 'd' }, { title: 'e' }] }), {
        data: [
          { title: 'd', createdVia: 'mcp', updatedVia: 'mcp' },
          { title: 'e', createdVia: 'mcp', updatedVia: 'mcp' },
        ],
      });
    });
  });

  it("outside an MCP call uses the resolver's channel, `api` by default", async () => {
    assert.deepEqual(await sent(hooks().create, 'Note', { data: { title: 'a' } }), {
      data: { title: 'a', createdVia: 'api', updatedVia: 'api' },
    });
    assert.deepEqual(await sent(hooks(() => 'panel').create, 'Note', { data: {} }), { data: { createdVia: 'panel', updatedVia: 'panel' } });
  });

  it('leaves a model without both fields alone', async () => {
    assert.deepEqual(await sent(hooks().create, 'Tag', { data: { name: 't' } }), { data: { name: 't' } });
  });

  it('refuses a write where no channel is known, naming McpChannel.run', async () => {
    await assert.rejects(sent(hooks(() => undefined).create, 'Note', { data: {} }), /no channel is known.*McpChannel\.run/);
  });
});
