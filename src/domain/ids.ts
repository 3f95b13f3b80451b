const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are uuids; anything else is simply "not found", never a database error. */
export const isUuid = (s: string): boolean => UUID.test(s);
