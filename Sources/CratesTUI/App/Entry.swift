import CratesCore

/// What the add prompt (or a camera scan) names: a barcode or a Discogs release.
enum Entry: Equatable {
    case gtin(GTIN)
    case release(Int)

    /// Parses a barcode in any form the GTIN parser accepts, or a release reference
    /// (`r249504`, a release URL). The error is the parser's message, for the prompt.
    static func parse(_ text: String) -> Result<Entry, EntryError> {
        if let id = ReleaseReference.parse(text) { return .success(.release(id)) }
        do {
            return .success(.gtin(try GTIN.parse(text).gtin))
        } catch {
            return .failure(EntryError(message: "\(error)"))
        }
    }
}

struct EntryError: Error, Equatable {
    var message: String
}
