import ArgumentParser
import CratesApp
import CratesCore

/// `crates barcode CODE...`: explains barcodes, one line per code. A collector's answer to
/// "why does this barcode not scan?", and the seam later issues test the GTIN core through.
struct BarcodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "barcode",
        abstract: "Explain barcodes: canonical GTIN, kind, issuing country or class, Discogs lookup forms.",
        discussion: """
            Each CODE is read as a person or a scanner produces it: EAN-13, UPC-A, EAN-8, \
            UPC-E (also the 6 and 7-digit forms some scanners send), GTIN-14/ITF-14, with \
            spaces or dashes between groups, an EAN-2/EAN-5 add-on, a GS1 element string \
            such as (01)05099750442227 (other application identifiers after (01) are \
            ignored), or a symbology identifier such as ]E0 in front. Digits of other \
            scripts (Arabic-Indic, Eastern Arabic, fullwidth) are read as 0-9; control \
            characters are refused.

            Output: one line per code, in order, with tab-separated columns:
              input  canonical  kind  add-on  country-or-class  lookup-forms  notes
            The lookup forms are separated by "; ", as are the notes; an empty add-on or \
            notes column is "-". The class says plainly when the code is not a record \
            (an ISBN, a coupon, a shop's price label…), and names crates' own labels (a \
            place's, 290…, or a copy's, 291…: never looked up, so their lookup forms are \
            "-"); a label typed with a wrong check digit says which label was meant.

            An invalid code gets a line on standard error instead:
              input  error  message
            and the exit status is 1 if any code was invalid, 0 otherwise. Control \
            characters in an input are shown as escapes (\\0, \\t, \\u{1B}) and long inputs \
            are shortened.

            On a terminal, aligned columns under a heading instead: the code, its GTIN, and \
            in words its kind, country or class, and the other forms Discogs is asked for \
            ("UPC-A, United States and Canada; Discogs searches 074644022513, 0 74644 02251 \
            3"). --header puts a line of the column names before the tab-separated lines.

            With --json, each code is one JSON object per line on standard output, errors \
            included (with an "error" member); the exit status is the same.

            Examples:
              crates barcode 5099750442227 '0-77774-62002-4' 04252614
              crates barcode --json '(01)05099750442227' 9781617292156
              crates barcode $(cat codes.txt) | cut -f2
            """)

    @Flag(help: "Print one JSON object per code and line instead of tab-separated columns.")
    var json = false

    @OptionGroup var header: HeaderOption

    func validate() throws {
        try header.check(json: json)
    }

    /// The tab-separated lines' columns (the `--header` line).
    static let names = ["input", "canonical", "kind", "add-on", "country-or-class", "lookup-forms", "notes"]

    /// What a terminal shows: the code as typed, its GTIN, and a sentence of the rest.
    static let terminalColumns = [
        TableColumn(heading: "CODE", field: 0, cap: 24),
        TableColumn(heading: "GTIN", field: 1, cap: 14),
        TableColumn(heading: "WHAT", cap: 200) { fields in Self.sentence(fields) },
    ]

    /// "UPC-A, United States and Canada; Discogs searches 074644022513, 0 74644 02251 3":
    /// the kind (and add-on), the country or class, the forms Discogs is asked for besides
    /// the GTIN shown beside it, and the notes.
    static func sentence(_ fields: [String]) -> String {
        guard fields.count >= 7 else { return fields.dropFirst(2).joined(separator: ", ") }
        let (canonical, kind, addOn, place, forms, notes) = (fields[1], fields[2], fields[3], fields[4], fields[5], fields[6])
        var text = kind + (addOn == "-" ? "" : " with add-on \(addOn)") + ", " + place
        if forms != "-" {
            let others = forms.components(separatedBy: "; ").filter { $0 != canonical }
            text += "; Discogs searches " + (others.isEmpty ? canonical : others.joined(separator: ", "))
        }
        if notes != "-" { text += "; " + notes }
        return text
    }

    @Argument(help: "The barcodes to explain, as typed or scanned (quote codes with spaces).")
    var codes: [String]

    func run() throws {
        var anyInvalid = false
        let output = json ? nil : ColumnOutput(names: Self.names, columns: Self.terminalColumns, header: header.header)
        for code in codes {
            let explanation = BarcodeExplanation(code)
            if explanation.isInvalid { anyInvalid = true }
            // Unbuffered, so that the two streams interleave in input order when they share a
            // terminal or a file.
            if json {
                try StandardStreams.out(jsonLines: [try explanation.jsonLine()])
            } else if explanation.isInvalid {
                StandardStreams.errLine(explanation.line)
            } else {
                try output?.write(lines: [explanation.line])
            }
        }
        try output?.finish()
        if anyInvalid { throw ExitCode(1) }
    }
}
