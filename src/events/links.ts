/** Absolute links under {base_url} carried by search events and search records. */
export function searchLinks(baseUrl: string, searchId: string, projectId: string) {
  return {
    search: `${baseUrl}/searches/${searchId}`,
    records: `${baseUrl}/searches/${searchId}/records`,
    records_csv: `${baseUrl}/searches/${searchId}/records.csv`,
    shortlist: `${baseUrl}/projects/${projectId}/shortlist`,
    shortlist_csv: `${baseUrl}/projects/${projectId}/shortlist.csv`,
  };
}
