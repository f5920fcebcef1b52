import CratesCore
import Testing

/// What an import does with each line, given what the collection already holds.
@Suite struct ImportPlanTests {
    private func file(_ text: String) throws -> ImportFile { try ImportFile.parse(Array(text.utf8)) }
    private func key(_ canonical: String) throws -> ImportKey { .gtin(try #require(GTIN(canonical: canonical))) }

    @Test func aKeyListedNTimesIsNCopies() throws {
        let text = "5099750442227\n5012345678900\n5099750442227\n5099750442227\nr249504\nr249504\nbad\n"
        let parsed = try file(text)
        let a = try key("5099750442227")
        let b = try key("5012345678900")

        let empty = ImportPlan(file: parsed, present: [:], copies: false)
        #expect(empty.items.map(\.verdict) == [.new, .new, .new, .new, .needsDiscogs, .needsDiscogs])
        #expect(empty.newCount == 4 && empty.presentCount == 0 && empty.needsDiscogsCount == 2)
        #expect(empty.invalidCount == 1)

        // The collection holds 2 copies of A and 1 of B: only the third A is new.
        let some = ImportPlan(file: parsed, present: [a: 2, b: 1, .release(249_504): 1], copies: false)
        #expect(some.items.map(\.verdict) == [.present, .present, .present, .new, .present, .needsDiscogs])
        #expect(some.newEntries.map(\.line) == [4])

        // Everything there (a second run): nothing new.
        let all = ImportPlan(file: parsed, present: [a: 3, b: 1, .release(249_504): 2], copies: false)
        #expect(all.newCount == 0 && all.needsDiscogsCount == 0 && all.presentCount == 6)

        // --copies: every line is a copy.
        let copies = ImportPlan(file: parsed, present: [a: 3, b: 1], copies: true)
        #expect(copies.newCount == 4 && copies.presentCount == 0)
    }

    @Test func dryRunLinesAreInFileOrderWithVerdicts() throws {
        let parsed = try file("# c\n5099750442227\nnope\n9781617292156\n5012345678900\nr1\n")
        let plan = ImportPlan(file: parsed, present: [try key("5012345678900"): 1], copies: false)
        #expect(plan.lines.map(\.line) == [2, 3, 4, 5, 6])
        #expect(plan.lines.map(\.verdict) == ["new", "invalid", "not-a-record", "present", "needs-discogs"])
        #expect(plan.lines.map(\.subject) == ["5099750442227", "nope", "9781617292156", "5012345678900", "release 1"])
    }
}
