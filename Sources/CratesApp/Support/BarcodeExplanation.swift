import CratesCore
import Foundation

/// `crates barcode CODE`: what crates reads in a code, as a tab-separated line or a JSON
/// object. A collector's answer to "why does this barcode not scan?".
public struct BarcodeExplanation: Sendable {
    public let input: String
    public let result: Result<ParsedBarcode, GTINError>
    /// crates' own label, when the code is one (told apart before the rule for records).
    public let label: LabelCode?
    /// A crates label with a wrong check digit: which label was meant.
    public let labelError: LabelCodeError?

    public init(_ code: String) {
        input = code
        result = Result { () throws(GTINError) in try GTIN.parse(code) }
        var label: LabelCode?
        var labelError: LabelCodeError?
        do {
            label = try LabelCode.parse(code)
        } catch {
            if case .checkDigit = error { labelError = error }
        }
        self.label = label
        self.labelError = labelError
    }

    public var isInvalid: Bool {
        if case .failure = result { return true }
        return false
    }

    /// `input  canonical  kind  add-on  class  lookup-forms  notes`, or for an invalid code
    /// `input  error  message`. A crates label's class says whose label it is, and it has no
    /// lookup forms: it is never looked up.
    public var line: String {
        switch result {
        case .success(let barcode):
            [
                GTIN.displayForm(of: barcode.input),
                barcode.gtin.canonical,
                barcode.kind.description,
                barcode.addOn?.digits ?? "-",
                label.map(Self.classification) ?? barcode.classification.description,
                label == nil ? barcode.lookupForms.joined(separator: "; ") : "-",
                barcode.notes.isEmpty ? "-" : barcode.notes.map(\.description).joined(separator: "; "),
            ].joined(separator: "\t")
        case .failure(let error):
            [GTIN.displayForm(of: input), "error", labelError?.description ?? error.description].joined(separator: "\t")
        }
    }

    /// "crates location label 17: a place's own label, not a record's barcode (never looked up)".
    static func classification(_ label: LabelCode) -> String {
        "\(label.notARecordReason) (never looked up)"
    }

    /// One JSON object: the reading, or the error (with an "error" member).
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(BarcodeReport(self)), as: UTF8.self)
    }
}

/// One code as a JSON object: either the reading or the error.
private struct BarcodeReport: Encodable {
    struct LabelReport: Encodable {
        let kind: String
        let id: Int
    }

    let input: String
    var canonical: String?
    var kind: String?
    var addOn: String?
    var classification: String?
    var isMusicReleaseCandidate: Bool?
    var notARecordReason: String?
    var lookupForms: [String]?
    var notes: [String]?
    /// A crates label: `kind` ("location" or "copy") and `id`.
    var label: LabelReport?
    var error: String?

    init(_ explanation: BarcodeExplanation) {
        input = GTIN.displayForm(of: explanation.input)
        switch explanation.result {
        case let .success(barcode):
            canonical = barcode.gtin.canonical
            kind = barcode.kind.description
            addOn = barcode.addOn?.digits
            classification = barcode.classification.description
            isMusicReleaseCandidate = barcode.classification.isMusicReleaseCandidate
            notARecordReason = barcode.classification.notARecordReason
            lookupForms = barcode.lookupForms
            notes = barcode.notes.map(\.description)
            if let code = explanation.label {
                classification = BarcodeExplanation.classification(code)
                isMusicReleaseCandidate = false
                notARecordReason = code.notARecordReason
                lookupForms = []
                label = LabelReport(kind: code.kind.rawValue, id: code.id)
            }
        case let .failure(failure):
            error = explanation.labelError?.description ?? failure.description
        }
    }
}
