import { NotFoundError, type TroveClient } from "@trove/sdk/node";

type Log = (line: string) => void;

const MASK = /^\*+$/;

/**
 * Sources: create an S3 source with credentials, read it back (secrets come back masked, never
 * in plaintext), update it by sending the configuration back as read with one field changed
 * (the masked secrets in it keep the stored ones), list, and delete. A source's name is its
 * delivery origin, so it is never renamed.
 */
export async function manageSources(trove: TroveClient, name: string, log: Log): Promise<void> {
  const created = await trove.sources.create({
    name,
    type: "s3",
    configuration: {
      region: "eu-west-1",
      bucket: "media",
      access_key: "AKIAEXAMPLEKEY",
      secret_key: "example-secret-do-not-print",
    },
  });
  log(`created source ${created.name} (id ${created.id}, type ${created.type})`);

  try {
    const stored = await trove.sources.get(created.id);
    log(`read back: ${JSON.stringify(stored.configuration)}`);

    // Edit what was read and send it all back: the masked secrets in it mean "keep what is stored".
    const updated = await trove.sources.update(created.id, {
      configuration: { ...stored.configuration, region: "eu-central-1" },
    });
    const { secret_key, access_key, region } = updated.configuration as Record<string, unknown>;
    const kept = typeof secret_key === "string" && MASK.test(secret_key) && typeof access_key === "string";
    log(`updated region to ${String(region)}, sending the masked secrets back unchanged`);
    log(
      kept
        ? `secret kept: secret_key is still set (shown as ${secret_key}), access_key too`
        : "secret NOT kept: the update dropped it",
    );
    if (!kept) throw new Error("the server dropped a secret that was sent back masked");

    // The name is the source's delivery origin ({assets}/{workspace_no}-{name}/...); a rename keeps
    // the old URLs working (they redirect to the new name).
    log(`deliver its objects at {assets}/{workspace_no}-${created.name}/<path in the bucket>`);

    let count = 0;
    for await (const source of trove.sources.listAll({ search: name })) {
      count += 1;
      log(`listed ${source.name} (${source.type}, active: ${source.is_active})`);
    }
    log(`${count} source(s) match "${name}"`);
  } finally {
    await trove.sources.delete(created.id);
    log(`deleted source ${created.id}`);
  }

  try {
    await trove.sources.get(created.id);
  } catch (error) {
    if (error instanceof NotFoundError) log("it is gone: reading it again answers 404");
    else throw error;
  }
}
