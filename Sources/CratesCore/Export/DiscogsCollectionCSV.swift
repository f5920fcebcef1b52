import Foundation

/// The collection as Discogs exports it (Dashboard → Export → Collection), plus a `Barcode`
/// column, so that a crates collection opens where a Discogs export does and `crates import`
/// reads it back.
///
/// One row per copy, under a header row with exactly these columns:
///
/// | column | value |
/// |---|---|
/// | `Catalog#` | the catalogue numbers of the release's labels, joined by ", " |
/// | `Artist`, `Title` | as crates shows them (Discogs' " (2)" and "*" markers removed) |
/// | `Label` | the label names, joined by ", " |
/// | `Format` | the formats with their descriptions ("CD, Album"), several joined by " + " |
/// | `Rating` | the copy's rating, 1 to 5; empty when not rated |
/// | `Released` | the release year |
/// | `release_id` | the Discogs release id |
/// | `CollectionFolder` | the Discogs folder of a copy synced with Discogs (`crates sync`); else the name of the place the copy is in (crates' nearest thing to a folder) |
/// | `Date Added` | when the copy was added, `YYYY-MM-DD HH:MM:SS` in UTC (`UTCTimestamp`) |
/// | `Collection Media Condition`, `Collection Sleeve Condition` | Discogs' exact grade texts ("Very Good Plus (VG+)"), empty when not graded |
/// | `Collection Notes` | the record's note |
/// | `Barcode` | the canonical GTIN (8, 13 or 14 digits); empty for a record without one |
/// | `Location` | the place's whole path, "Living Room › Shelf 2 › Crate A3" (what `crates import` reads back first) |
/// | `Collector Fields` | which of the values are the collector's own ("Artist,Released"), by these columns' names |
/// | `Genre`, `Country` | the genre and country shown (the collector's where set, else the release's first genre and its country) |
/// | `Entered By Hand` | `yes` for a record entered by hand (never looked up), else empty |
/// | `Purchase Price`, `Purchase Currency`, `Purchase Date`, `Bought From` | what was paid ("12.50"), in what (ISO 4217), when (YYYY-MM-DD) and where; crates' own, never Discogs' |
/// | `Lent To`, `Lent On`, `Returned On` | the copy's loan: to whom, since when, and when it came back (empty while out) |
/// | `Location Codes` | the label codes of the places in `Location`, one per place of the path, joined by " › " ("2900000000025 › 2900000000032"): a restore gives each place made again its code, so printed labels still scan |
///
/// Artist, Title, Label, Catalog#, Format and Released are the values shown: the
/// collector's own where set, else the release's. A record not matched (pending,
/// ambiguous, not found…) has empty release columns but for the collector's values, and
/// keeps its barcode, date, location and note. Fields are quoted per RFC 4180 (`CSVWriter`),
/// and a field a spreadsheet would run as a formula gets a quote in front
/// (`SpreadsheetFormula`), which `crates import` takes off again.
public enum DiscogsCollectionCSV {
    public static let columns = [
        "Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id",
        "CollectionFolder", "Date Added", "Collection Media Condition", "Collection Sleeve Condition",
        "Collection Notes", "Barcode", "Location", "Collector Fields", "Genre", "Country", "Entered By Hand",
        "Purchase Price", "Purchase Currency", "Purchase Date", "Bought From", "Lent To", "Lent On", "Returned On",
        "Location Codes",
    ]

    /// The `Entered By Hand` value of a record entered by hand.
    public static let handEnteredMark = "yes"

    /// A field's name in `Collector Fields`: the column that shows it ("Genre" and "Country"
    /// are crates' own, after Discogs' columns).
    static func column(of field: RecordField) -> String {
        switch field {
        case .artist: "Artist"
        case .title: "Title"
        case .label: "Label"
        case .catno: "Catalog#"
        case .format: "Format"
        case .year: "Released"
        case .genre: "Genre"
        case .country: "Country"
        }
    }

    /// The header row.
    public static func header(_ writer: CSVWriter = CSVWriter()) -> String {
        writer.record(columns)
    }

    /// The row of one copy.
    public static func row(_ entry: ExportedRecord, _ writer: CSVWriter = CSVWriter()) -> String {
        writer.record(fields(entry))
    }

    /// The row's fields, in `columns` order.
    public static func fields(_ entry: ExportedRecord) -> [String] {
        let record = entry.record
        let release = entry.release
        let shown = entry.shown
        var fields: [String] = []
        fields.reserveCapacity(columns.count)
        fields.append(shown.catno ?? "")
        fields.append(shown.artist ?? "")
        fields.append(shown.title ?? "")
        fields.append(shown.label ?? "")
        fields.append(shown.format ?? "")
        fields.append(record.grading.rating.isRated ? String(record.grading.rating.value) : "")
        fields.append(shown.year.map { String($0) } ?? "")
        fields.append(release.map { String($0.id) } ?? "")
        let folder = entry.discogs.flatMap { $0.removedOnDiscogs ? nil : $0.folderName }
        fields.append(folder ?? record.location?.name ?? "")
        fields.append(UTCTimestamp.format(record.addedAt, .discogs))
        fields.append(record.grading.media?.rawValue ?? "")
        fields.append(record.grading.sleeve?.rawValue ?? "")
        fields.append(record.note ?? "")
        fields.append(record.gtin?.canonical ?? "")
        fields.append(record.location?.pathText ?? "")
        fields.append(record.collector.fields.map(column(of:)).joined(separator: ","))
        fields.append(shown.genre ?? "")
        fields.append(shown.country ?? "")
        fields.append(record.lookupState == .handEntered ? handEnteredMark : "")
        fields.append(record.purchase.price.map(MoneyAmount.text) ?? "")
        fields.append(record.purchase.currency ?? "")
        fields.append(record.purchase.date ?? "")
        fields.append(record.purchase.from ?? "")
        fields.append(record.loan?.to ?? "")
        fields.append(record.loan?.since ?? "")
        fields.append(record.loan?.returned ?? "")
        fields.append(
            entry.placePath.compactMap { LabelCode(kind: .location, id: Int($0))?.digits }.joined(separator: Location.separator))
        return fields.map(SpreadsheetFormula.neutralised)
    }

    /// The field a `Collector Fields` name stands for (`column(of:)` read back, in any case).
    public static func field(ofColumn name: Substring) -> RecordField? {
        let name = name.trimmingWhitespace().lowercased()
        return RecordField.allCases.first { column(of: $0).lowercased() == name }
    }

    /// The place ids a `Location Codes` value names, from the top down; nil when any of
    /// them is not a place's label code (then the codes are not used at all).
    public static func placeIDs(_ text: String) -> [Int64]? {
        let parts = text.split(separator: "›").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        var ids: [Int64] = []
        for part in parts {
            guard let code = try? LabelCode.parse(part), code.kind == .location else { return nil }
            ids.append(Int64(code.id))
        }
        return ids
    }

    /// Reads a `Date Added` value as this export writes it (UTC); nil when it is not one.
    public static func dateAdded(_ text: String) -> Date? {
        UTCTimestamp.parse(text)
    }
}
