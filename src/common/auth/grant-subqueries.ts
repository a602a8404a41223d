import { IdSubquery } from '../sql/id-subquery';

/*
 * Read scopes as SQL, for list queries that must stay one query: the access layer owns the
 * question "which rows do these teams' grants reach", as it owns every permission query (listed
 * in docs/architecture.md with the token lookup). Callers handle an empty team list themselves.
 */

/** Workspaces one of these teams was given access to. */
export function workspacesGrantedTo(teamIds: string[]): IdSubquery {
  return {
    sql: '(SELECT tw.workspace_id FROM team_workspaces tw WHERE tw.team_id IN (:...grantTeamIds))',
    parameters: { grantTeamIds: teamIds },
  };
}

/** Projects holding a workspace one of these teams was given access to. */
export function projectsGrantedTo(teamIds: string[]): IdSubquery {
  return {
    sql: `(SELECT w.project_id FROM workspaces w
             INNER JOIN team_workspaces tw ON tw.workspace_id = w.id
            WHERE tw.team_id IN (:...grantTeamIds))`,
    parameters: { grantTeamIds: teamIds },
  };
}
