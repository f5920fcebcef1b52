import CratesCore

/// A record's sort keys, from its release (nil: unmatched, in the Unknown section).
struct RecordKeys {
    var section: String
    /// The row key less the GTIN, for SQL to complete with `? || gtin` (matched records).
    var rowPrefix: String
    var row: String

    init(release: Release?, gtin: String) {
        if let release {
            section = SortKey.section(release.section)
            rowPrefix = SortKey.rowPrefix(title: release.title, artist: release.artist)
            row = rowPrefix + gtin
        } else {
            section = SortKey.unknownSection
            rowPrefix = SortKey.unmatchedRow
            row = SortKey.unmatchedRow
        }
    }
}
