import CratesCore
import Foundation
import Testing

@Suite("GS1 prefix table")
struct GTINPrefixTableTests {
    /// ../shared/gs1/gtin-prefixes.tsv beside the repository, when this checkout has one.
    static let sharedTable: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CratesCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package root
        .appendingPathComponent("../shared/gs1/gtin-prefixes.tsv")
        .standardizedFileURL

    @Test("the compiled-in table still matches ../shared/gs1/gtin-prefixes.tsv (regenerate with scripts/gen-gs1-table.sh)",
          .enabled(if: FileManager.default.fileExists(atPath: sharedTable.path),
                   "no ../shared/gs1/gtin-prefixes.tsv beside this checkout"))
    func matchesSharedTable() throws {
        let shared = try String(contentsOf: Self.sharedTable, encoding: .utf8)
        #expect(Self.trimmingTrailingNewlines(shared) == Self.trimmingTrailingNewlines(GS1PrefixTable.publishedText))
    }

    @Test("every line of the compiled-in table is read")
    func everyLineRead() {
        #expect(GS1PrefixTable.rejectedLines.isEmpty)
        let dataLines = GS1PrefixTable.publishedText.split(whereSeparator: \.isNewline).dropFirst()
        #expect(GS1PrefixTable.entries.count == dataLines.count)
        #expect(GS1PrefixTable.entries.count > 100)
    }

    @Test("rows do not overlap")
    func noOverlap() {
        var owner = [String?](repeating: nil, count: 1000)
        for entry in GS1PrefixTable.entries {
            for prefix in entry.prefixes {
                #expect(owner[prefix] == nil, "\(prefix) in \(owner[prefix] ?? "") and \(entry.published)")
                owner[prefix] = entry.published
            }
        }
    }

    @Test("lookups", arguments: [
        (500, "United Kingdom"), (509, "United Kingdom"), (0, "United States and Canada"),
        (380, "Bulgaria"), (990, "GS1 coupon identification"), (999, "GS1 coupon identification"),
        (978, "Bookland (ISBN)"), (618, "Côte d'Ivoire"),
    ])
    func lookup(prefix: Int, usedBy: String) {
        #expect(GS1PrefixTable.entry(forPrefix: prefix)?.usedBy == usedBy)
    }

    @Test("unassigned and out-of-range prefixes have no row")
    func unassigned() {
        #expect(GS1PrefixTable.entry(forPrefix: 150) == nil)
        #expect(GS1PrefixTable.entry(forPrefix: 381) == nil)
        #expect(GS1PrefixTable.entry(forPrefix: -1) == nil)
        #expect(GS1PrefixTable.entry(forPrefix: 1000) == nil)
    }

    @Test("parsing: widths, header, and lines that are refused")
    func parsing() {
        let parsed = GS1PrefixTable.parse("range\tused_by\n99\tA\n5\tB\n100-139\tC\n12-3\tD\n7x\tE\n380\t\n40-41")
        #expect(parsed.entries.map(\.prefixes) == [990...999, 500...599, 100...139])
        #expect(parsed.entries.map(\.usedBy) == ["A", "B", "C"])
        #expect(parsed.rejectedLines == ["12-3\tD", "7x\tE", "380\t", "40-41"])
    }

    static func trimmingTrailingNewlines(_ text: String) -> Substring {
        var text = Substring(text)
        while text.last?.isNewline == true { text = text.dropLast() }
        return text
    }
}
