/**
 * Every row of a paged list, fetching pages as the loop asks for them. Stops when the server says
 * there is no more, or (defensively) at an empty page, so a wrong flag cannot loop forever.
 */
export async function* paginate<Page, Row>(
  fetchPage: (page: number) => Promise<Page>,
  rowsOf: (page: Page) => readonly Row[],
  hasMore: (page: Page) => boolean,
  firstPage = 1,
): AsyncGenerator<Row, void, undefined> {
  for (let number = firstPage; ; number++) {
    const page = await fetchPage(number);
    const rows = rowsOf(page);
    yield* rows;
    if (!hasMore(page) || rows.length === 0) return;
  }
}
