import Foundation

/// What a check says about one code, from the catalogue, the collection, the wantlist and
/// the price cache: what the record is, and where the collector stands with it. Nothing is
/// added or queued by a check.
public struct CheckAnswer: Hashable, Sendable {
    /// The code as given (shown as printed), or the search text.
    public var code: String
    public var gtin: GTIN?
    public var releases: [CheckedRelease]
    /// Copies of one of `releases`, or (when the code is not matched yet) with its barcode.
    public var owned: [OwnedCopy]
    public var otherPressings: [OtherPressing]
    public var wanted: [WantEntry]
    /// Said beside the answer: why the code is unknown ("not in the catalogue of
    /// 2026-06-01; Discogs cannot be reached"), or that nothing was found.
    public var note: String?
    /// The code is unknown because Discogs could not be asked (the fair's list keeps it to
    /// look up later).
    public var unreachable: Bool

    public init(
        code: String, gtin: GTIN?, releases: [CheckedRelease] = [], owned: [OwnedCopy] = [],
        otherPressings: [OtherPressing] = [], wanted: [WantEntry] = [], note: String? = nil, unreachable: Bool = false
    ) {
        self.code = code
        self.gtin = gtin
        self.releases = releases
        self.owned = owned
        self.otherPressings = otherPressings
        self.wanted = wanted
        self.note = note
        self.unreachable = unreachable
    }

    /// The strongest of the releases' verdicts; `owned` when a copy has the barcode though
    /// no release is known; `unknown` when nothing is.
    public var verdict: CheckVerdict {
        if let strongest = releases.map(\.verdict).min() { return strongest }
        if !owned.isEmpty { return .owned }
        if !wanted.isEmpty { return .wanted }
        return .unknown
    }

    /// Sets each release's verdict from the copies, other pressings and wants found.
    public mutating func decide() {
        for index in releases.indices {
            let id = releases[index].id
            if owned.contains(where: { $0.releaseID == id }) {
                releases[index].verdict = .owned
            } else if otherPressings.contains(where: { $0.of == id }) {
                releases[index].verdict = .otherPressing
            } else if wanted.contains(where: { $0.releaseID == id }) {
                releases[index].verdict = .wanted
            } else {
                releases[index].verdict = .new
            }
        }
    }

    /// "2 copies: #12 in Living Room › Shelf 2, VG+/VG; #40 in no place": the "already
    /// have" answer, naming each copy's place and grades.
    public func ownedSummary(of releaseID: Int?) -> String? {
        let copies = owned.filter { releaseID == nil || $0.releaseID == releaseID }
        guard !copies.isEmpty else { return nil }
        let count = copies.count == 1 ? "1 copy" : "\(copies.count) copies"
        return "\(count): " + copies.map(\.summary).joined(separator: "; ")
    }
}
