/// How a release is named wherever a person reads it: "Artist — Title" (an em dash with a
/// space each side), or the title alone when the artist is unknown. One rule for the list,
/// the details, the picker, the messages and the command line.
public enum DisplayTitle {
    public static func of(artist: String, title: String) -> String {
        artist.isEmpty ? title : "\(artist) — \(title)"
    }
}

extension Release {
    /// "Artist — Title".
    public var displayTitle: String { DisplayTitle.of(artist: artist, title: title) }
}

extension ReleaseCandidate {
    /// "Artist — Title".
    public var displayTitle: String { DisplayTitle.of(artist: artist, title: title) }
}

extension CollectionRow {
    /// "Artist — Title" once matched; the barcode until then.
    public var displayTitle: String {
        guard lookupState == .matched, let title, !title.isEmpty else { return gtin }
        return DisplayTitle.of(artist: artist ?? "", title: title)
    }
}
