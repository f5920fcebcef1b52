import Foundation

/// What identifies a record in an import file: its barcode, or the Discogs release a
/// collection export names (`release_id`), which says more than the barcode (one barcode
/// can be several pressings).
public enum ImportKey: Hashable, Sendable, CustomStringConvertible {
    case gtin(GTIN)
    case release(Int)

    public var description: String {
        switch self {
        case .gtin(let gtin): gtin.canonical
        case .release(let id): "release \(id)"
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
    /// The conditions and rating of a Discogs collection export's row.
    public var grading: CopyGrading

    /// Nil when the entry has neither a barcode nor a release id (never made by the parser).
    /// An entry keyed on `releaseID` when given, else on `gtin`.
    public init?(
        line: Int, gtin: GTIN?, releaseID: Int? = nil, note: String? = nil, addedAt: Date? = nil,
        location: String? = nil, grading: CopyGrading = .none
    ) {
        guard gtin != nil || releaseID != nil else { return nil }
        self.line = line
        self.gtin = gtin
        self.releaseID = releaseID
        self.note = note
        self.addedAt = addedAt
        self.location = location
        self.grading = grading
    }

    /// The release id when there is one (it names the pressing), else the barcode.
    public var key: ImportKey {
        if let releaseID { return .release(releaseID) }
        if let gtin { return .gtin(gtin) }
        return .release(0)  // unreachable: the initialiser requires one of the two
    }

    /// What the entry is, for a person: the canonical barcode, else "release 123".
    public var label: String {
        switch (gtin, releaseID) {
        case (let gtin?, let id?): "\(gtin.canonical) (release \(id))"
        case (let gtin?, nil): gtin.canonical
        case (nil, let id?): "release \(id)"
        case (nil, nil): ""
        }
    }
}
