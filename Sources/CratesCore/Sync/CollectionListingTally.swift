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

    public init() {}

    /// Takes one page in (pages in order, from the first); returns its instances not shown
    /// before in this reading.
    public mutating func add(_ page: DiscogsCollectionPage) -> [DiscogsCollectionInstance] {
        pagesRead += 1
        let number = pagesRead
        let pagination = page.pagination
        if number == 1 {
            expectedItems = pagination.items
            expectedPages = pagination.pages
            if pagination.items == nil || pagination.pages == nil {
                note("Discogs did not say how many copies the collection holds")
            }
        } else if pagination.items != expectedItems || pagination.pages != expectedPages {
            note("the collection changed while it was read (page \(number) said \(Self.describe(pagination)), page 1 \(Self.describe(items: expectedItems, pages: expectedPages)))")
        }
        if page.releases.isEmpty, number < (expectedPages ?? 0) {
            note("page \(number) of \(expectedPages ?? 0) came back empty")
        }
        return page.releases.filter { seen.insert($0.instanceID).inserted }
    }

    /// True when the pages agree and every copy they promised was shown, once.
    public var isComplete: Bool { problem == nil }

    /// Why the reading cannot be believed whole; nil when it can.
    public var problem: String? {
        if let flaw { return flaw }
        guard let expectedItems, let expectedPages else { return "Discogs did not say how many copies the collection holds" }
        if pagesRead < expectedPages {
            return "only \(pagesRead) of \(expectedPages) pages were read"
        }
        if seen.count != expectedItems {
            return "Discogs said \(expectedItems) \(expectedItems == 1 ? "copy" : "copies"), the pages showed \(seen.count)"
        }
        return nil
    }

    private mutating func note(_ text: String) {
        if flaw == nil { flaw = text }
    }

    private static func describe(_ pagination: DiscogsPagination) -> String {
        describe(items: pagination.items, pages: pagination.pages)
    }

    private static func describe(items: Int?, pages: Int?) -> String {
        "\(items.map(String.init) ?? "?") copies in \(pages.map(String.init) ?? "?") pages"
    }
}
