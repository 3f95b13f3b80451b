import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';
import type { History } from '@temporalio/common/lib/proto-utils';

/**
 * Workflow histories as the standard proto JSON (the format of `temporal workflow show --output
 * json` and the Temporal UI's download). The SDK's historyToJSON/historyFromJSON cannot be used
 * here: npm installs @temporalio/common and @temporalio/proto with two copies of protobufjs 8 and
 * its protojson refuses types of the other copy ("type must be a Type"), so this uses the copy
 * that @temporalio/proto's types belong to.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const protojson: { toJson(type: unknown, message: unknown): unknown; fromJson(type: unknown, json: unknown, options?: object): unknown } = require(
  require.resolve('protobufjs/ext/protojson', { paths: [require.resolve('@temporalio/proto')] }),
);
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType('temporal.api.history.v1.History');

export function historyToJson(history: History): unknown {
  return protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history));
}

export function historyFromJson(json: unknown): History {
  return protojson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}
