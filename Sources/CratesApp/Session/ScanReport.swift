import CratesCore
import Foundation

/// What crates does with a camera scan, as `crates scan` prints it: the same rules as the
/// collection UI and `crates add` (`ScanIntent`, `CodeEntry`, `BarcodeAdmission`).
public enum ScanReport {
    /// "adds barcode", "adds release 249504", "asks first: an ISBN: a book, not a record",
    /// "sets the current place (crates location label 17)", "selects the copy (crates copy
    /// label 5)", "refused: …", or "ignored".
    public static func action(for event: ScanEvent) -> String {
        switch event.intent {
        case .ignored:
            return "ignored"
        case .release(let id):
            return "adds release \(id)"
        case .barcode(let text):
            switch Result(catching: { () throws(LabelCodeError) in try CodeEntry.parseConfigured(text) }) {
            case .failure(let error):
                return "refused: \(error)"
            case .success(.release(let id)):
                return "adds release \(id)"
            case .success(.label(let code)):
                return code.kind == .location ? "sets the current place (\(code.summary))" : "selects the copy (\(code.summary))"
            case .success(.barcode(let gtin)):
                switch gtin.admission {
                case .record: return "adds barcode"
                case .confirm(let code): return "asks first: \(code.reason)"
                case .reserved(let reason): return "refused: \(reason)"
                case .label(let code): return "refused: \(code.notARecordReason)"
                }
            }
        }
    }

    /// `symbology  data  time  what-crates-does`, tab-separated.
    public static func line(for event: ScanEvent) -> String {
        [
            GTIN.displayForm(of: event.symbology.rawValue, limit: 32),
            GTIN.displayForm(of: event.data, limit: ScanEvent.maximumLineLength),
            event.at.formatted(Date.ISO8601FormatStyle()),
            action(for: event),
        ].joined(separator: "\t")
    }
}
