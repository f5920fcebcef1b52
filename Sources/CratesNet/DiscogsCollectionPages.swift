import CratesCore

/// A folder's pages, read one request at a time as they are asked for:
///
///     var pages = client.collectionPages(username: name)
///     while let page = try await pages.next() { … page.releases … }
///
/// The first page says how many there are (`pagination.pages`); reading stops after the
/// last one, or at the first empty page (a collection that shrank while it was read), so a
/// wrong page count cannot make it loop. Memory holds one page, whatever the collection's
/// size.
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
        guard !finished else { return nil }
        let page = try await client.collectionPage(
            username: username, folderID: folderID, page: nextPage, perPage: perPage, sort: sort, order: order)
        pageCount = page.pagination.pages
        itemCount = page.pagination.items
        if page.releases.isEmpty || nextPage >= (page.pagination.pages ?? nextPage) {
            finished = true
        }
        nextPage += 1
        return page
    }
}
