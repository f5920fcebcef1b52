/// One reading of a collection folder, page by page, and whether it adds up.
///
/// Discogs lists a collection in offset pages. A copy removed while the pages are read
/// shifts the later pages, so the copy at the boundary is never shown; an empty or short
/// page, or a page count that changes, leaves copies out too. A copy that a listing did not
/// show is gone from Discogs only if the listing was whole: otherwise a sync would flag
/// copies still there "removed on Discogs", or add them there a second time. So a reading
/// counts as complete only when every page agrees on how many copies and pages there are,
/// none of its pages came back empty before the last, and the distinct instances shown are
/// exactly that many.
public struct CollectionListingTally: Sendable {
    /// Every distinct instance shown.
    public private(set) var seen: Set<Int64> = []
    /// The copies and pages the first page said the folder holds.
    public private(set) var expectedItems: Int?
    public private(set) var expectedPages: Int?
    public private(set) var pagesRead = 0
    /// Why the reading does not add up, as soon as a page shows it.
    private var flaw: String?
    /// What is listed, in words: "copy"/"copies" of "the collection" (a wantlist is read
    /// by the same rule: its "wants" of "the wantlist").
    private let one: String
    private let many: String
    private let whole: String

    public init() {
        self.init(one: "copy", many: "copies", whole: "the collection")
    }

    /// A tally of another listing: `one`/`many` name its items, `whole` the list.
    public init(one: String, many: String, whole: String) {
        self.one = one
        self.many = many
        self.whole = whole
    }

    /// Takes one page in (pages in order, from the first); returns its instances not shown
    /// before in this reading.
    public mutating func add(_ page: DiscogsCollectionPage) -> [DiscogsCollectionInstance] {
        let fresh = Set(add(pagination: page.pagination, ids: page.releases.map(\.instanceID)))
        var given: Set<Int64> = []
        return page.releases.filter { fresh.contains($0.instanceID) && given.insert($0.instanceID).inserted }
    }

    /// Takes in one page of any listing by its pagination and the ids it shows; returns the
    /// ids not shown before in this reading, in their order.
    public mutating func add(pagination: DiscogsPagination, ids: [Int64]) -> [Int64] {
        pagesRead += 1
        let number = pagesRead
        if number == 1 {
            expectedItems = pagination.items
            expectedPages = pagination.pages
            if pagination.items == nil || pagination.pages == nil {
                note("Discogs did not say how many \(many) \(whole) holds")
            }
        } else if pagination.items != expectedItems || pagination.pages != expectedPages {
            note("\(whole) changed while it was read (page \(number) said \(describe(pagination)), page 1 \(describe(items: expectedItems, pages: expectedPages)))")
        }
        if ids.isEmpty, number < (expectedPages ?? 0) {
            note("page \(number) of \(expectedPages ?? 0) came back empty")
        }
        return ids.filter { seen.insert($0).inserted }
    }

    /// True when the pages agree and every copy they promised was shown, once.
    public var isComplete: Bool { problem == nil }

    /// Why the reading cannot be believed whole; nil when it can.
    public var problem: String? {
        if let flaw { return flaw }
        guard let expectedItems, let expectedPages else { return "Discogs did not say how many \(many) \(whole) holds" }
        if pagesRead < expectedPages {
            return "only \(pagesRead) of \(expectedPages) pages were read"
        }
        if seen.count != expectedItems {
            return "Discogs said \(expectedItems) \(expectedItems == 1 ? one : many), the pages showed \(seen.count)"
        }
        return nil
    }

    private mutating func note(_ text: String) {
        if flaw == nil { flaw = text }
    }

    private func describe(_ pagination: DiscogsPagination) -> String {
        describe(items: pagination.items, pages: pagination.pages)
    }

    private func describe(items: Int?, pages: Int?) -> String {
        "\(items.map(String.init) ?? "?") \(many) in \(pages.map(String.init) ?? "?") pages"
    }
}
