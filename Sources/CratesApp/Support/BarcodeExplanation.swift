import CratesCore
import Foundation

/// `crates barcode CODE`: what crates reads in a code, as a tab-separated line or a JSON
/// object. A collector's answer to "why does this barcode not scan?".
public struct BarcodeExplanation: Sendable {
    public let input: String
    public let result: Result<ParsedBarcode, GTINError>

    public init(_ code: String) {
        input = code
        result = Result { () throws(GTINError) in try GTIN.parse(code) }
    }

    public var isInvalid: Bool {
        if case .failure = result { return true }
        return false
    }

    /// `input  canonical  kind  add-on  class  lookup-forms  notes`, or for an invalid code
    /// `input  error  message`.
    public var line: String {
        switch result {
        case .success(let barcode):
            [
                GTIN.displayForm(of: barcode.input),
                barcode.gtin.canonical,
                barcode.kind.description,
                barcode.addOn?.digits ?? "-",
                barcode.classification.description,
                barcode.lookupForms.joined(separator: "; "),
                barcode.notes.isEmpty ? "-" : barcode.notes.map(\.description).joined(separator: "; "),
            ].joined(separator: "\t")
        case .failure(let error):
            [GTIN.displayForm(of: input), "error", error.description].joined(separator: "\t")
        }
    }

    /// One JSON object: the reading, or the error (with an "error" member).
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(BarcodeReport(code: input, result: result)), as: UTF8.self)
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
}
