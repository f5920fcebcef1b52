import CratesApp
import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// The cover cache on disk and the daily budget, in a temporary directory.
@Suite struct CoverCacheTests {
    private func bytes(_ count: Int, _ value: UInt8) -> [UInt8] { [UInt8](repeating: value, count: count) }

    @Test func keepsCoversByReleaseAndRemembersNoCover() throws {
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        let cache = CoverCache(directory: directory.file("covers"), limitBytes: 10_000)
        #expect(cache.entry(1) == nil)
        try cache.store(bytes(10, 7), release: 1)
        try cache.rememberNoCover(2)
        #expect(cache.entry(1) == .image(bytes(10, 7)))
        #expect(cache.entry(2) == .noCover)
        // Another process (or run) sees the same.
        let again = CoverCache(directory: directory.file("covers"), limitBytes: 10_000)
        #expect(again.entry(1) == .image(bytes(10, 7)) && again.entry(2) == .noCover)
    }

    /// Written whole through a temporary file renamed over it: none is left behind, and a
    /// cover stored again replaces the old one whole.
    @Test func writesAtomically() throws {
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        let cache = CoverCache(directory: directory.file("covers"), limitBytes: 10_000)
        try cache.store(bytes(100, 1), release: 5)
        try cache.store(bytes(40, 2), release: 5)
        #expect(cache.entry(5) == .image(bytes(40, 2)))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("covers"))
        #expect(names.sorted() == ["5.image"], "no temporary file left: \(names)")
    }

    /// Past its bound, the least recently used go first: a cover read is used, so the one
    /// neither read nor stored since is removed.
    @Test func removesTheLeastRecentlyUsedPastItsBound() throws {
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        let cache = CoverCache(directory: directory.file("covers"), limitBytes: 300)
        try cache.store(bytes(100, 1), release: 1)
        try cache.store(bytes(100, 2), release: 2)
        try cache.store(bytes(100, 3), release: 3)
        #expect(cache.totalBytes == 300)
        _ = cache.entry(1)  // 1 used: 2 is now the least recently used
        try cache.store(bytes(100, 4), release: 4)
        #expect(cache.entry(2) == nil)
        #expect(cache.entry(1) != nil && cache.entry(3) != nil && cache.entry(4) != nil)
        #expect(cache.totalBytes <= 300)
    }

    @Test func theBudgetHoldsAcrossRunsAndStartsAgainEachDay() throws {
        let directory = try TemporaryDirectory(prefix: "crates-covers")
        var budget = CoverBudget(file: directory.file("covers/budget"), dailyLimit: 2)
        budget.today = { "2026-11-25" }
        try budget.spend()
        try budget.spend()
        #expect(throws: CoverError.budgetReached(2)) { try budget.spend() }
        #expect(CoverError.budgetReached(1000).description == "today's 1,000 covers fetched: more tomorrow")
        // Another run, the same day: still spent.
        var later = CoverBudget(file: directory.file("covers/budget"), dailyLimit: 2)
        later.today = { "2026-11-25" }
        #expect(later.spentToday == 2)
        #expect(throws: CoverError.budgetReached(2)) { try later.spend() }
        // The next day.
        later.today = { "2026-11-26" }
        #expect(later.spentToday == 0)
        try later.spend()
        #expect(later.spentToday == 1)
    }

    @Test func coverAddressesComeFromImagesThenCoverImageThenThumb() {
        let release = #"{"id": 1, "thumb": "https://i.example/t.jpg", "images": [{"type": "secondary", "uri": "https://i.example/2.jpg"}, {"type": "primary", "uri": "https://i.example/1.jpg", "uri150": "https://i.example/1s.jpg"}]}"#
        #expect(CoverAddress.url(in: release) == "https://i.example/1.jpg")
        let result = #"{"id": 1, "thumb": "https://i.example/t.jpg", "cover_image": "https://i.example/c.jpg"}"#
        #expect(CoverAddress.url(in: result) == "https://i.example/c.jpg")
        // An anonymous answer: the fields are there, empty.
        let anonymous = #"{"id": 1, "thumb": "", "cover_image": "", "images": [{"type": "primary", "uri": "", "uri150": ""}]}"#
        #expect(CoverAddress.url(in: anonymous) == nil)
        #expect(CoverAddress.url(in: "not json") == nil)
    }

    @Test func coverTargetsAreRecordsOrReleases() {
        #expect(CoverTarget("12") == .record(12))
        #expect(CoverTarget("r249504") == .release(249_504))
        #expect(CoverTarget("r") == nil && CoverTarget("x1") == nil && CoverTarget("0") == nil && CoverTarget("-3") == nil)
    }
}
