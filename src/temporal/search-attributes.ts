import { defineSearchAttributeKey, SearchAttributeType, type TypedSearchAttributes } from '@temporalio/common';

/**
 * Custom search attributes registered on the Temporal server (dev bootstrap and docker-compose),
 * so support staff can filter workflows by workspace, project or search in the Temporal UI.
 */
export const WorkspaceIdAttr = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
export const ProjectIdAttr = defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD);
export const SearchIdAttr = defineSearchAttributeKey('SearchId', SearchAttributeType.KEYWORD);

export const CUSTOM_SEARCH_ATTRIBUTES = ['WorkspaceId', 'ProjectId', 'SearchId'] as const;

export type { TypedSearchAttributes };
