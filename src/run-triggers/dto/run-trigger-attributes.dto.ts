/**
 * A run trigger has no writable attributes: the request names only the sourceable relationship.
 * Attributes a client sends anyway are ignored, as everywhere else.
 */
export class RunTriggerAttributes {}
