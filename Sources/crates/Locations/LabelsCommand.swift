import ArgumentParser
import CratesApp
import CratesStore

/// `crates labels`: a PDF of barcode labels for places and copies.
struct LabelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "labels",
        abstract: "Write barcode labels for places (and copies) to a PDF, for a label sheet or a label printer.",
        discussion: """
            Each place's label has its barcode (EAN-13 in GS1's in-store range, 290…: every \
            scanner reads it, and a keyboard-wedge scanner types it as digits), the digits, \
            its name and the places it is in. --records prints a label per copy instead, \
            with the copy's own code (291…): of the records named by id or copy label, or, \
            when any value is not one, of the records a query keeps (as `crates list` takes \
            it: --records artist:queen 'place:Crate A1'). --contents adds, for each place, its contents \
            list (every record in it and inside it) on a page of its own.

            Layouts: \(LabelPrinting.layoutNames.joined(separator: ", ")) \
            (a4-3x7: Avery L7160, 63.5 × 38.1 mm; letter-3x10: Avery 5160, 2.625 × 1 in; \
            roll-62: 62 mm continuous roll, cut to each label; roll-29x90: die-cut 29 × 90 mm), \
            or a custom sheet in mm: \(LabelPrinting.customSheetSyntax), e.g. \
            \(LabelPrinting.customSheetExample).

            crates writes the PDF (atomically: FILE is replaced only when it is whole); \
            printing it is yours: lp FILE.pdf. Without --layout, the layout is labels.layout \
            in the configuration (`crates config labels.layout letter-3x10`), else a4-3x7. Exit status: 0 written, 1 nothing written (an \
            unknown layout or place, a name longer than a label…).

            Examples:
              crates labels --all --layout a4-3x7 -o labels.pdf
              crates labels "Crate A3" --contents --layout a4-3x7 -o crate.pdf --skip 4
              crates labels --records 12 13 --layout roll-29x90 -o copies.pdf --bleed 0.05
              crates labels --records added:..7d -o new-copies.pdf
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "Places to print (names, paths, #ids or label codes).") var places: [String] = []
    @Flag(help: "Every place.") var all = false
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Print a label per copy for these records (ids or copy labels), or for those a query keeps.", valueName: "id|query"))
    var records: [String] = []
    @Option(help: ArgumentHelp(
        "The label stock: a4-3x7, letter-3x10, roll-62, roll-29x90 or sheet:… (default: labels.layout in `crates config`, else a4-3x7).",
        valueName: "layout"))
    var layout: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("The PDF to write (- for standard output).", valueName: "file.pdf"))
    var output: String
    @Flag(help: "Add each place's contents list on a page of its own.") var contents = false
    @Option(help: ArgumentHelp("Positions already used on the first sheet.", valueName: "n")) var skip = 0
    @Option(help: ArgumentHelp("Draw bars this many mm thinner, for thermal printers.", valueName: "mm")) var bleed = 0.0
    @Option(help: ArgumentHelp("The printer's resolution: bars are whole dots.", valueName: "dpi")) var dpi = 300

    func validate() throws {
        if isQuery { _ = try QueryArguments(terms: records).query() }
    }

    /// `--records` given a query: some value is no record id or copy label.
    var isQuery: Bool {
        records.contains { text in if case .failure = LocationDirectory.recordID(text) { true } else { false } }
    }

    func run() throws {
        try QueryArguments.answering { try write() }
    }

    private func write() throws {
        // Checked before the collection is opened: never the collection's own files.
        try store.checkOutput(output)
        // Read-only: printing labels writes nothing to the collection.
        let printing = LabelPrinting(store: try store.openForReading())
        let request = LabelPrinting.Request(
            places: places, all: all, records: records, recordQuery: isQuery ? try QueryArguments(terms: records).query() : nil,
            layout: layout ?? ConfigurationFile.current().labelLayout, contents: contents, skip: skip, bleed: bleed, dpi: dpi)
        do {
            let written = try blocking { try await printing.write(request, to: self.output) }
            for line in written.cut { StandardStreams.errLine(line) }
            StandardStreams.errLine(written.summary)
        } catch StoreError.query(let error) {
            throw StoreError.query(error)  // a query term the collection cannot answer: exit 64
        } catch {
            throw CLIError("\(error)")
        }
    }
}
