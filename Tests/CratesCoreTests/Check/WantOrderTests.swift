import CratesCore
import Foundation
import Testing

/// The wantlist's orders, shared by `crates want list --sort` and the wantlist view's `O`.
@Suite struct WantOrderTests {
    /// In the store's order (by artist): Abba, Bowie, Cure, Dylan.
    static let entries: [WantListing] = [
        listing(1, "Abba", rating: 2, day: 3, price: 10),
        listing(2, "Bowie", rating: 5, day: 1, price: nil),
        listing(3, "Cure", rating: 0, day: 2, price: 5),
        listing(4, "Dylan", rating: 5, day: 4, price: 10),
    ]

    static func listing(_ id: Int, _ artist: String, rating: Int, day: Double, price: Double?) -> WantListing {
        let want = WantEntry(
            releaseID: id, artist: artist, title: "Title", rating: Rating(clamping: rating), addedAt: Date(timeIntervalSince1970: day * 86_400))
        return WantListing(want: want, price: price.map { PriceFigure(lowest: $0, currency: "EUR", forSale: 1, asOf: Date(timeIntervalSince1970: 0)) })
    }

    static func ids(_ order: WantOrder, reversed: Bool) -> [Int] {
        order.arranged(entries, reversed: reversed).map(\.id)
    }

    @Test("each order either way round; equals keep the store's order; no price known stays last", arguments: [
        (WantOrder.artist, false, [1, 2, 3, 4]), (.artist, true, [4, 3, 2, 1]),
        (.added, false, [2, 3, 1, 4]), (.added, true, [4, 1, 3, 2]),
        (.rating, false, [2, 4, 1, 3]), (.rating, true, [3, 1, 4, 2]),
        (.price, false, [3, 1, 4, 2]), (.price, true, [4, 1, 3, 2]),
    ])
    func orders(order: WantOrder, reversed: Bool, expected: [Int]) {
        #expect(Self.ids(order, reversed: reversed) == expected)
    }

    @Test("O cycles through every order and back; each says itself both ways round")
    func cycle() {
        var order = WantOrder.artist
        var seen: [WantOrder] = []
        for _ in WantOrder.allCases {
            seen.append(order)
            order = order.next
        }
        #expect(seen == WantOrder.allCases && order == .artist)
        let said = WantOrder.allCases.flatMap { [$0.described(reversed: false), $0.described(reversed: true)] }
        #expect(Set(said).count == said.count && said.allSatisfy { $0.hasPrefix("by ") })
    }
}
