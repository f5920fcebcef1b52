import CratesCore
import Foundation

/// Why labels could not be laid out or written. Each message says what was asked and what
/// would work, so that the command line can print it as it is.
public enum LabelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A layout name that is neither built in nor a custom sheet.
    case unknownLayout(String, known: [String])
    /// A custom sheet (`sheet:...`) that does not parse or does not fit its page.
    case badCustomSheet(String, reason: String)
    /// The label has no room for a barcode that scanners read.
    case labelTooSmall(layout: String, reason: String)
    /// `skip`, `bleed` or `dpi` out of range for this layout.
    case badOption(String)
    /// Contents lists need a sheet or a continuous roll, not a die-cut label.
    case contentsNeedPage(layout: String)
    /// Nothing to print: no labels and no contents.
    case nothingToPrint
    /// libzint refused the data (it says why).
    case barcode(data: String, reason: String)
    /// cairo failed while drawing the PDF (its status text).
    case drawing(String)

    public var description: String {
        switch self {
        case let .unknownLayout(name, known):
            return "unknown layout \"\(Self.safe(name))\": use one of \(known.joined(separator: ", ")), "
                + "or a custom sheet such as \(LabelSheetLayout.customSheetExample)"
        case let .badCustomSheet(text, reason):
            return "custom sheet \"\(Self.safe(text))\": \(reason) "
                + "(the form is \(LabelSheetLayout.customSheetSyntax), lengths in mm, "
                + "e.g. \(LabelSheetLayout.customSheetExample))"
        case let .labelTooSmall(layout, reason):
            return "label too small (\(layout)): \(reason)"
        case let .badOption(reason):
            return reason
        case let .contentsNeedPage(layout):
            return "contents lists need a sheet layout (a4-3x7, letter-3x10, a custom sheet) or the continuous "
                + "roll-62, not the die-cut \(layout)"
        case .nothingToPrint:
            return "nothing to print: no labels and no contents"
        case let .barcode(data, reason):
            return "cannot draw the barcode \(Self.safe(data)): \(reason)"
        case let .drawing(reason):
            return "cannot draw the labels: \(reason)"
        }
    }

    /// `text` with control characters escaped, cut at 80 characters: names come from users
    /// and Discogs, and the message reaches a terminal.
    static func safe(_ text: String) -> String { GTIN.displayForm(of: text, limit: 80) }
}

/// So that `error.localizedDescription` says the same as `description`.
extension LabelError: LocalizedError {
    public var errorDescription: String? { description }
}
