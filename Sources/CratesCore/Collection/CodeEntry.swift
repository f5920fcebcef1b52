import Foundation

/// What a person typed, a keyboard-wedge scanner sent or a camera read, as crates takes it:
/// a barcode, a Discogs release (`r249504`, `[r249504]`, a release page URL), or one of
/// crates' own labels. Shared by the TUI's prompt, camera scans, `crates add`, `crates
/// lookup` and `crates scan`.
public enum CodeEntry: Hashable, Sendable {
    case barcode(GTIN)
    case release(Int)
    /// A crates label (`LabelCode`: GS1 prefixes 290 and 291): a place's, which makes it the
    /// current place in the collection UI, or a copy's, which selects that copy. Told apart
    /// before any rule for records, so that it is never stored as one and never looked up.
    case label(LabelCode)

    /// Parses a release reference first (a bare number is never one: digits are a barcode),
    /// then a crates label, else a barcode in any form the GTIN parser reads. The error says
    /// exactly what is wrong; for a crates label with a wrong check digit, which label was
    /// meant.
    ///
    /// `webBases`: Discogs' web addresses besides discogs.com (`CRATES_DISCOGS_WEB`), whose
    /// release pages are taken as Discogs' are.
    public static func parse(_ text: String, webBases: [String] = []) throws(LabelCodeError) -> CodeEntry {
        if let id = ReleaseReference.parse(text, webBases: webBases) { return .release(id) }
        let label: LabelCode?
        do {
            label = try LabelCode.parse(text)
        } catch .barcode(let error) {
            throw hinted(text, error)
        } catch {
            throw error
        }
        if let label { return .label(label) }
        do {
            return .barcode(try GTIN.parse(text).gtin)
        } catch {
            throw hinted(text, error)
        }
    }

    /// A barcode error, or what the text more likely was: a web address, or a release id as
    /// `crates search` prints it (fewer digits than any barcode).
    private static func hinted(_ text: String, _ error: GTINError) -> LabelCodeError {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("://") || trimmed.lowercased().hasPrefix("www.") { return .webAddress(trimmed, error) }
        if case .wrongLength(let count) = error, (1...5).contains(count), trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return .releaseNumber(trimmed, error)
        }
        return .barcode(error)
    }
}
