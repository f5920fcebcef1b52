/// The `pagination` object of Discogs' paged lists ("Pagination" in Discogs' API
/// documentation): the page served, how many pages and items there are in all, and the page
/// size. Read leniently: a missing member is nil.
public struct DiscogsPagination: Decodable, Hashable, Sendable {
    public var page: Int?
    public var pages: Int?
    public var perPage: Int?
    public var items: Int?

    enum CodingKeys: String, CodingKey {
        case page, pages, items
        case perPage = "per_page"
    }

    public init(page: Int? = nil, pages: Int? = nil, perPage: Int? = nil, items: Int? = nil) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.items = items
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        page = try? c.decodeIfPresent(Int.self, forKey: .page)
        pages = try? c.decodeIfPresent(Int.self, forKey: .pages)
        perPage = try? c.decodeIfPresent(Int.self, forKey: .perPage)
        items = try? c.decodeIfPresent(Int.self, forKey: .items)
    }
}
