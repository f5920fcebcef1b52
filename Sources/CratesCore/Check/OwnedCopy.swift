import Foundation

/// A copy in the collection as a check names it: which copy, of which release, where it is
/// and in what condition.
public struct OwnedCopy: Hashable, Sendable {
    public var id: Int64
    /// Nil for a copy not matched to a release yet (owned by its barcode).
    public var releaseID: Int?
    /// "Living Room › Shelf 2"; nil: in no place.
    public var place: String?
    public var grading: CopyGrading
    public var addedAt: Date
    /// The copy's release as shown (for another pressing: what tells it apart).
    public var artist: String
    public var title: String
    public var country: String?
    public var year: Int?
    public var format: String?
    public var label: String?
    public var catno: String?

    public init(
        id: Int64, releaseID: Int?, place: String?, grading: CopyGrading, addedAt: Date, artist: String = "",
        title: String = "", country: String? = nil, year: Int? = nil, format: String? = nil, label: String? = nil,
        catno: String? = nil
    ) {
        self.id = id
        self.releaseID = releaseID
        self.place = place
        self.grading = grading
        self.addedAt = addedAt
        self.artist = artist
        self.title = title
        self.country = country
        self.year = year
        self.format = format
        self.label = label
        self.catno = catno
    }

    /// "#12 in Living Room › Shelf 2, VG+/VG": the copy, its place and its grades, as the
    /// "already have" answers name them.
    public var summary: String {
        var text = "#\(id)"
        text += place.map { " in \($0)" } ?? " in no place"
        if grading.media != nil || grading.sleeve != nil {
            text += ", \(grading.media?.abbreviation ?? "–")/\(grading.sleeve?.abbreviation ?? "–")"
        }
        return text
    }
}
