import ArgumentParser
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
            (an ISBN, a coupon, a shop's price label…).

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
            let result = Result { () throws(GTINError) in try GTIN.parse(code) }
            if case .failure = result { anyInvalid = true }
            if json {
                try emit(BarcodeReport(code: code, result: result).jsonLine(), error: false)
            } else {
                switch result {
                case let .success(barcode): try emit(Self.line(for: barcode), error: false)
                case let .failure(error): try emit(Self.line(input: code, error: error), error: true)
                }
            }
        }
        if anyInvalid { throw ExitCode(1) }
    }

    /// `input  canonical  kind  add-on  class  lookup-forms  notes`, tab-separated.
    static func line(for barcode: ParsedBarcode) -> String {
        [
            GTIN.displayForm(of: barcode.input),
            barcode.gtin.canonical,
            barcode.kind.description,
            barcode.addOn?.digits ?? "-",
            barcode.classification.description,
            barcode.lookupForms.joined(separator: "; "),
            barcode.notes.isEmpty ? "-" : barcode.notes.map(\.description).joined(separator: "; "),
        ].joined(separator: "\t")
    }

    /// `input  error  message`, tab-separated.
    static func line(input: String, error: GTINError) -> String {
        [GTIN.displayForm(of: input), "error", error.description].joined(separator: "\t")
    }

    /// Writes a line to standard output or standard error, unbuffered, so that the two
    /// streams interleave in input order when they share a terminal or a file.
    private func emit(_ line: String, error: Bool) throws {
        let handle = error ? FileHandle.standardError : FileHandle.standardOutput
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }
}

/// One code as a JSON object: either the reading or the error.
private struct BarcodeReport: Encodable {
    let input: String
    var canonical: String?
    var kind: String?
    var addOn: String?
    var classification: String?
    var isMusicReleaseCandidate: Bool?
    var notARecordReason: String?
    var lookupForms: [String]?
    var notes: [String]?
    var error: String?

    init(code: String, result: Result<ParsedBarcode, GTINError>) {
        input = GTIN.displayForm(of: code)
        switch result {
        case let .success(barcode):
            canonical = barcode.gtin.canonical
            kind = barcode.kind.description
            addOn = barcode.addOn?.digits
            classification = barcode.classification.description
            isMusicReleaseCandidate = barcode.classification.isMusicReleaseCandidate
            notARecordReason = barcode.classification.notARecordReason
            lookupForms = barcode.lookupForms
            notes = barcode.notes.map(\.description)
        case let .failure(failure):
            error = failure.description
        }
    }

    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
