import CratesCore

/// What one barcode search says about a scanned record.
public enum DiscogsBarcodeMatch: Hashable, Sendable {
    /// No pressing carries this barcode form.
    case none
    /// Clearly one release: fetch it in full.
    case one(releaseID: Int)
    /// Several pressings share the barcode: the user chooses.
    case several([ReleaseCandidate])

    /// Decides from the results of `type=release&barcode=FORM`.
    ///
    /// "Clearly the one" is kept conservative: a single release, or every result being the
    /// same release (Discogs lists a release once per matching identifier, so one release
    /// can come back twice). Pressings that share a master, a format and a country are
    /// still different releases (another label, catalogue number, year or matrix), and the
    /// record in the user's hands is exactly one of them, so they stay candidates. Results
    /// that are not releases (masters, artists, labels) are ignored.
    public init(results: [DiscogsSearchPage.Result]) {
        var seen = Set<Int>()
        let releases = results.filter { $0.isRelease && seen.insert($0.id).inserted }
        switch releases.count {
        case 0: self = .none
        case 1: self = .one(releaseID: releases[0].id)
        default: self = .several(releases.map(\.candidate))
        }
    }
}
