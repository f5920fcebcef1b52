import CratesCore

/// A record's sort keys, from what it shows: the collector's genre, title and artist where
/// set, else its release's (nil: unmatched). A record with neither a title nor an artist
/// sorts ahead of its section's titled ones, in the order records were added.
struct RecordKeys {
    var section: String
    /// The row key less the GTIN, for SQL to complete with `? || coalesce(gtin, '')`.
    var rowPrefix: String
    var row: String

    init(release: Release?, collector: RecordFields = .none, gtin: String) {
        section = SortKey.section(collector.genre ?? release?.section ?? Section.unknown)
        let title = collector.title ?? release?.title
        let artist = collector.artist ?? release?.artist
        if title == nil, artist == nil {
            rowPrefix = SortKey.unmatchedRow
            row = SortKey.unmatchedRow
        } else {
            rowPrefix = SortKey.rowPrefix(title: title, artist: artist)
            row = rowPrefix + gtin
        }
    }
}
