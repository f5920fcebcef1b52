import Foundation

/// What identifies a record in an import file: its barcode, or the Discogs release a
/// collection export names (`release_id`), which says more than the barcode (one barcode
/// can be several pressings), or, for a row with neither, what it describes
/// (`RecordFields.entryKey`: catalogue number, artist and title, folded).
public enum ImportKey: Hashable, Sendable, CustomStringConvertible {
    case gtin(GTIN)
    case release(Int)
    case described(String)

    public var description: String {
        switch self {
        case .gtin(let gtin): gtin.canonical
        case .release(let id): "release \(id)"
        case .described(let key): key
        }
    }
}

/// One valid line (or CSV row) of an import file: a copy to have in the collection.
public struct ImportEntry: Hashable, Sendable {
    /// The 1-based line the entry starts on.
    public var line: Int
    /// The barcode, when the line has one. A Discogs export row has only a release id: its
    /// barcode is learnt from Discogs.
    public var gtin: GTIN?
    /// The Discogs release the row names (an export's `release_id`), if any.
    public var releaseID: Int?
    /// The row's note column (`note`, `notes` or Discogs' `Collection Notes`).
    public var note: String?
    /// When the copy was added, from the row's date column (Discogs' `Date Added`).
    public var addedAt: Date?
    /// Where the copy lives, from a `location` column (or Discogs' `CollectionFolder`, whose
    /// default folder, "Uncategorized", means none).
    public var location: String?
    /// For a row with neither a barcode nor a release id: what it says of the record
    /// (`artist`, `title`, `catno`, `label`, `year`, `country`, `format` columns). Searched
    /// on Discogs, and kept on the record as the collector's own values.
    public var described: RecordFields?
    /// The conditions and rating of a Discogs collection export's row.
    public var grading: CopyGrading
    /// The collector's own values of a row of crates' export (its `Collector Fields`), kept
    /// on the record whatever Discogs says; nil when the row names none.
    public var collector: RecordFields?
    /// A row of crates' export marked `Entered By Hand`: stored entered by hand, never
    /// looked up.
    public var handEntered: Bool
    /// What was paid, and the copy's loan, from crates' export's own columns (`Purchase
    /// Price`… `Returned On`).
    public var purchase: Purchase = .none
    public var loan: Loan?
    /// The ids `location`'s places had where the row was exported (crates' `Location
    /// Codes`), from the top down: a place the import makes takes its id when no place has
    /// it, so that its printed label still scans. Empty when the row names none.
    public var locationCodes: [Int64] = []

    /// Nil when the entry has neither a barcode, nor a release id, nor a description with a
    /// key (never made by the parser). An entry keyed on `releaseID` when given, else on
    /// `gtin`, else on `described`.
    public init?(
        line: Int, gtin: GTIN?, releaseID: Int? = nil, note: String? = nil, addedAt: Date? = nil,
        location: String? = nil, described: RecordFields? = nil, grading: CopyGrading = .none,
        collector: RecordFields? = nil, handEntered: Bool = false
    ) {
        let described = (gtin == nil && releaseID == nil) ? described : nil
        guard gtin != nil || releaseID != nil || described?.entryKey != nil else { return nil }
        self.init(
            stored: line, gtin: gtin, releaseID: releaseID, note: note, addedAt: addedAt, location: location,
            described: described, grading: grading, collector: collector, handEntered: handEntered)
    }

    /// An entry read back from `ImportEntries`, which stores only valid ones.
    init(
        stored line: Int, gtin: GTIN?, releaseID: Int?, note: String?, addedAt: Date?, location: String?,
        described: RecordFields?, grading: CopyGrading, collector: RecordFields?, handEntered: Bool
    ) {
        self.line = line
        self.gtin = gtin
        self.releaseID = releaseID
        self.note = note
        self.addedAt = addedAt
        self.location = location
        self.described = described
        self.grading = grading
        self.collector = collector?.isEmpty == true ? nil : collector
        self.handEntered = handEntered
    }

    /// The values the record keeps as the collector's own: the row's `Collector Fields`, and
    /// for a row described by its values, those values too.
    public var ownValues: RecordFields {
        (collector ?? .none).over(described ?? .none)
    }

    /// The release id when there is one (it names the pressing), else the barcode, else the
    /// key of the values the record keeps (`ownValues`): the key its copy is stored under,
    /// so that the same file imported again finds it. (The row's described values alone
    /// differ from it when the row also names the collector's own.)
    public var key: ImportKey {
        if let releaseID { return .release(releaseID) }
        if let gtin { return .gtin(gtin) }
        return .described(ownValues.entryKey ?? described?.entryKey ?? "")
    }

    /// What the entry is, for a person: the canonical barcode, else "release 123", else
    /// "Artist — Title (CATNO)".
    public var label: String {
        switch (gtin, releaseID) {
        case (let gtin?, let id?): "\(gtin.canonical) (release \(id))"
        case (let gtin?, nil): gtin.canonical
        case (nil, let id?): "release \(id)"
        case (nil, nil): described?.description ?? ""
        }
    }
}
