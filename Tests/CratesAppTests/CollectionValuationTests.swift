import CratesCore
import CratesNet
@testable import CratesStore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesApp

/// `crates value`'s refresh in process, its clock injected: real SQLite, real libcurl against
/// the loopback server's marketplace.
@Suite("Collection value: refresh, history, release fetches")
struct CollectionValuationTests {
    static func day(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "T12:00:00Z") ?? Date(timeIntervalSince1970: 0) }

    static func seeded(_ store: CollectionStore) async throws -> [Int64] {
        var ids: [Int64] = []
        for (n, release) in [1, 5_134_861].enumerated() {
            let record = try await store.add(NewRecord(
                gtin: Fixtures.gtin(n), addMethod: .typed,
                release: Release(id: release, artist: "Artist", title: "Title \(n)", genres: ["Rock"]),
                grading: CopyGrading(media: .veryGoodPlus)))
            ids.append(record.id)
        }
        return ids
    }

    @Test("for a person: artist — title by value, the total and the currency; a release Discogs has no figures for says so once asked")
    func readable() async throws {
        let server = try await DiscogsTestServer.start()
        let store = try CollectionStore.inMemory()
        let ids = try await Self.seeded(store)
        try await server.inject("404", count: 1, match: "/marketplace/stats/5134861")
        try await server.sellerSettings("no")
        let now = Self.day("2026-11-02")
        let valuation = CollectionValuation(store: store, access: try access(server), timeline: Timeline(TestClock(), from: now))
        let outcome = await valuation.refresh(currency: "USD")
        #expect(outcome.ending == .complete, "\(outcome.messages)")
        let never = try await store.add(NewRecord(
            gtin: Fixtures.gtin(7), addMethod: .typed, release: Release(id: 13_416_116, artist: "Later", title: "Added", genres: ["Rock"])))
        let report = try await store.valueReport(currency: "USD", accountCurrency: false)
        let lines = ValueText.readable(report, accountCurrency: false, now: now.addingTimeInterval(3 * 86_400))
        #expect(lines.first == "Currency: USD")
        #expect(lines[1] == "Total: $1.49 for 1 of 3 copies (1 with no figures on Discogs, 1 not asked yet)", "\(lines)")
        #expect(lines.suffix(3) == [
            "  $1.49  Artist — Title 0  (lowest listed, 2 for sale, 3 days ago)  #\(ids[0])",
            "  no figures on Discogs  Artist — Title 1  (3 days ago)  #\(ids[1])",
            "  not asked yet  Later — Added  #\(never.id)",
        ], "\(lines)")
        // The tab-separated lines for scripts stay as they were.
        #expect(ValueText.lines(report, accountCurrency: false, now: now).contains("\(ids[1])\tr5134861\tnone listed, 2026-11-02 (today)"))

        // What was paid, against the value where both are known (in USD, the report's).
        _ = try await store.edit(ids[0], RecordEdit(purchase: PurchaseChange(price: .set(1), currency: .set("USD"))))
        _ = try await store.edit(ids[1], RecordEdit(purchase: PurchaseChange(price: .set(5), currency: .set("USD"))))
        let paid = ValueText.readable(
            try await store.valueReport(currency: "USD", accountCurrency: false), accountCurrency: false, now: now)
        #expect(paid.contains("Paid: $1.00 for 1 copy now worth $1.49 (+0.49)"), "\(paid)")
        #expect(paid.contains("  $1.49  Artist — Title 0  (lowest listed, 2 for sale, today)  paid 1.00  #\(ids[0])"), "\(paid)")
    }

    @Test("--history after two refreshes on different months: one line per month, each month's figures; a second refresh the same day replaces it")
    func history() async throws {
        let server = try await DiscogsTestServer.start()
        let store = try CollectionStore.inMemory()
        _ = try await Self.seeded(store)
        let clock = TestClock()
        let valuation = CollectionValuation(store: store, access: try access(server), timeline: Timeline(clock, from: Self.day("2026-10-30")))
        try await server.collectionValue(minimum: "$1,000.00", median: "$2,000.50", maximum: "$3,000.00")
        #expect(await valuation.refresh(currency: nil).ending == .complete)
        clock.advance(by: .seconds(Self.day("2026-11-02").timeIntervalSince(Self.day("2026-10-30"))))
        try await server.collectionValue(minimum: "$1,100.00", median: "$2,200.00", maximum: "$3,300.00")
        #expect(await valuation.refresh(currency: nil).ending == .complete)
        // Asked again the same day: that day's figures replaced, not added.
        try await server.collectionValue(minimum: "$1,200.00", median: "$2,400.00", maximum: "$3,600.00")
        #expect(await valuation.refresh(currency: nil).ending == .complete)

        let history = try await store.valueHistory(currency: nil)
        #expect(ValueText.history(history, json: false) == [
            "2026-10\t$1,000.00\t$2,000.50\t$3,000.00\t(2026-10-30)",
            "2026-11\t$1,200.00\t$2,400.00\t$3,600.00\t(2026-11-02)",
        ])
        let json = ValueText.history(history, json: true)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(json[0].utf8)) as? [String: Any])
        #expect(first["month"] as? String == "2026-10" && first["currency"] as? String == "USD")
        #expect((first["collection"] as? [String: Any])?["median"] as? Double == 2_000.5)
        let rows = try await store.read { db in
            try Int.fetchAll(db, sql: "SELECT (SELECT COUNT(*) FROM releasePrice) * 100 + (SELECT COUNT(*) FROM copyPrice) * 10 + (SELECT COUNT(*) FROM collectionValue)")
        }
        #expect(rows == [2 * 2 * 100 + 2 * 2 * 10 + 2], "one row per thing per day: two days of two releases, two copies, one collection")
        // The statistics screen's value over time: the same months, the medians.
        let charts = try #require(try await store.valueCharts(currency: "USD", accountCurrency: true))
        #expect(charts.overTime == [.init(key: "2026-10", count: 2_001), .init(key: "2026-11", count: 2_400)])
        // The most valuable copies and the genre's value agree with `crates value --json`:
        // each copy's suggested price for its grade (VG+: (id % 97 + 1) × 1.2).
        let report = try await store.valueReport(currency: "USD", accountCurrency: true)
        let values = report.records.map { $0.suggestedPrice ?? $0.lowestPrice ?? 0 }
        #expect(values == [2.4, 84])
        #expect(charts.mostValuable.map(\.count) == [84, 2])
        #expect(charts.byGenre == [.init(key: "Rock", count: 86)])
    }

    @Test("a full release fetch stores its lowest price and number for sale, in the account's currency")
    func releaseFetch() async throws {
        let server = try await DiscogsTestServer.start()
        let store = try CollectionStore.inMemory()
        let client = try access(server).client
        let release = try await client.release(id: 5_134_861)
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, release: release))
        let details = try #require(try await store.details(record.id))
        let value = try #require(details.value)
        #expect(value.currency == "" && value.figure.lowestPrice == 6.98 && value.figure.forSale == 14)
        #expect(value.figure.detailsText(currency: value.currency)?.hasPrefix("lowest listed 6.98 (14 for sale, ") == true)
        // Shown by `crates value` in the account's currency, as the refresh's figures are.
        let report = try await store.valueReport(currency: "", accountCurrency: true)
        #expect(report.records.first?.lowestPrice == 6.98)
    }

    @Test("a full release whose figures are none (a negative price, an absurd one, a negative count): nothing stored of them", arguments: [
        #"{"id": 7, "title": "T", "lowest_price": -5.0, "num_for_sale": -2}"#,
        #"{"id": 7, "title": "T", "lowest_price": 1e30, "num_for_sale": 3}"#,
    ])
    func releaseFiguresThatAreNone(json: String) async throws {
        let store = try CollectionStore.inMemory()
        var release = Release(id: 7, artist: "A", title: "T", genres: ["Rock"], formats: [], rawJSON: json)
        release.hasFullDetails = true
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, release: release))
        let figure = try await store.details(record.id)?.value?.figure
        #expect(figure?.lowestPrice == nil, "\(String(describing: figure))")
        #expect((figure?.forSale ?? 0) >= 0, "\(String(describing: figure))")
    }
}
