/// What a person typed, a keyboard-wedge scanner sent or a camera read, as crates takes it:
/// a barcode, or a Discogs release (`r249504`, `[r249504]`, a release page URL). Shared by the
/// TUI's prompt, camera scans, `crates add`, `crates lookup` and `crates scan`.
public enum CodeEntry: Hashable, Sendable {
    case barcode(GTIN)
    case release(Int)

    /// Parses a release reference first (a bare number is never one: digits are a barcode),
    /// else a barcode in any form the GTIN parser reads. The error says exactly what is wrong.
    public static func parse(_ text: String) throws(GTINError) -> CodeEntry {
        if let id = ReleaseReference.parse(text) { return .release(id) }
        return .barcode(try GTIN.parse(text).gtin)
    }
}
