import ArgumentParser
import CratesApp
import CratesCore
import Foundation

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

            With --json, each code is one JSON object per line on standard output, errors \
            included (with an "error" member); the exit status is the same.

            Examples:
              crates barcode 5099750442227 '0-77774-62002-4' 04252614
              crates barcode --json '(01)05099750442227' 9781617292156
              crates barcode $(cat codes.txt) | cut -f2
            """)

    @Flag(help: "Print one JSON object per code and line instead of tab-separated columns.")
    var json = false

    @Argument(help: "The barcodes to explain, as typed or scanned (quote codes with spaces).")
    var codes: [String]

    func run() throws {
        var anyInvalid = false
        for code in codes {
            let explanation = BarcodeExplanation(code)
            if explanation.isInvalid { anyInvalid = true }
            // Unbuffered, so that the two streams interleave in input order when they share a
            // terminal or a file.
            if json {
                try StandardStreams.out(try explanation.jsonLine() + "\n")
            } else if explanation.isInvalid {
                StandardStreams.errLine(explanation.line)
            } else {
                try StandardStreams.out(explanation.line + "\n")
            }
        }
        if anyInvalid { throw ExitCode(1) }
    }
}
