import CratesCore

/// A folder's pages, read one request at a time as they are asked for:
///
///     var pages = client.collectionPages(username: name)
///     while let page = try await pages.next() { … page.releases … }
///
/// The first page says how many there are (`pagination.pages`); reading stops after the
/// last one, never past the count the first page gave (so a page count that keeps growing
/// cannot make it loop), and after two empty pages in a row (a collection that shrank while
/// it was read). An empty page before the last does not end the reading: the pages after it
/// still hold copies. Whether what was read adds up is `CollectionListingTally`'s question.
/// Memory holds one page, whatever the collection's size.
public struct DiscogsCollectionPages: Sendable {
    public let client: DiscogsClient
    public let username: String
    public let folderID: Int
    public let perPage: Int
    public let sort: DiscogsCollectionSort
    public let order: DiscogsSortOrder
    /// The page `next()` asks for.
    public private(set) var nextPage = 1
    /// From the latest page: how many pages and instances the folder has. Nil before the
    /// first page.
    public private(set) var pageCount: Int?
    public private(set) var itemCount: Int?
    private var firstPageCount: Int?
    private var emptyInARow = 0
    private var finished = false

    init(client: DiscogsClient, username: String, folderID: Int, perPage: Int, sort: DiscogsCollectionSort, order: DiscogsSortOrder) {
        self.client = client
        self.username = username
        self.folderID = folderID
        self.perPage = perPage
        self.sort = sort
        self.order = order
    }

    /// The next page, or nil when every page has been read. After an error the same page
    /// is asked for again on the next call.
    public mutating func next() async throws(DiscogsError) -> DiscogsCollectionPage? {
        var once = RequestRetry.once
        return try await next(retrying: &once)
    }

    /// The next page, its request sent again through `retry` after a transient failure: a
    /// reading goes on from the page that failed, not from the first.
    public mutating func next(retrying retry: inout RequestRetry) async throws(DiscogsError) -> DiscogsCollectionPage? {
        guard !finished else { return nil }
        let (client, username, folderID, number, perPage, sort, order) = (
            self.client, self.username, self.folderID, nextPage, self.perPage, self.sort, self.order)
        let page = try await retry.send { () async throws(DiscogsError) -> DiscogsCollectionPage in
            try await client.collectionPage(username: username, folderID: folderID, page: number, perPage: perPage, sort: sort, order: order)
        }
        pageCount = page.pagination.pages
        itemCount = page.pagination.items
        if firstPageCount == nil { firstPageCount = page.pagination.pages ?? 1 }
        emptyInARow = page.releases.isEmpty ? emptyInARow + 1 : 0
        let last = min(firstPageCount ?? number, page.pagination.pages ?? number)
        if number >= last || emptyInARow >= 2 {
            finished = true
        }
        nextPage += 1
        return page
    }
}
