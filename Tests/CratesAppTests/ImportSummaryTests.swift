import Testing

@testable import CratesApp

/// What `crates import` prints at the end: the summary, with the pointer to the collection
/// UI's walk only when a record waits for a person's choice; and, when standard output could
/// not take the summary, the words that say the records were kept all the same.
@Suite("Importer.Outcome: the summary and its fallback")
struct ImportSummaryTests {
    struct Full: Error, CustomStringConvertible {
        var description: String { "cannot write to standard output: No space left on device" }
    }

    @Test("the walk is pointed to when a choice waits; the unprinted summary is said")
    func words() {
        var report = ImportReport(refusals: [], unresolved: [], followUp: nil, lines: [:])
        var outcome = Importer.Outcome(lines: ["shelf.txt: 2 added"], report: report, added: 2, closingMessage: nil, ending: .complete)
        #expect(outcome.summary == ["shelf.txt: 2 added"])
        report.items = [.init(line: 3, kind: "ambiguous", barcode: "5099750442227", releaseID: "", detail: "")]
        outcome.report = report
        #expect(outcome.summary.last == "Settle them one by one in the collection UI: run `crates` and press N (needs a person).")
        #expect(outcome.notPrinted(name: "shelf.txt", because: Full())
            == "shelf.txt: 2 records added and kept, but the summary was not printed: "
                + "cannot write to standard output: No space left on device; `crates list` shows the collection")
    }
}
