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

    /// "UK, 1969, PCS 7088": the pressing as a candidate names it (`ReleaseCandidate.pressing`),
    /// from the first label's catalogue number.
    public var pressing: String {
        let facts = [country, year.map(String.init), labels.first?.catno].compactMap { $0 }.filter { !$0.isEmpty }
        return facts.isEmpty ? "release \(id)" : facts.joined(separator: ", ")
    }

    /// "Artist — Title (UK, 1969, PCS 7088)": an added release named as a picked pressing
    /// is, however it came (a barcode, a search, a release id).
    public var displayPressing: String { "\(displayTitle) (\(pressing))" }
}

extension ReleaseCandidate {
    /// "Artist — Title".
    public var displayTitle: String { DisplayTitle.of(artist: artist, title: title) }

    /// What tells this pressing from the others of the same title: "UK, 1969, PCS 7088"
    /// (country, year, catalogue number, those Discogs gives), else "release 249504".
    public var pressing: String {
        let facts = [country, year.map(String.init), catno]
            .compactMap { $0 }.filter { !$0.isEmpty }
        return facts.isEmpty ? "release \(releaseID)" : facts.joined(separator: ", ")
    }

    /// "Artist — Title (UK, 1969, PCS 7088)": a chosen pressing, named so that it is told
    /// apart from the other pressings of the same title.
    public var displayPressing: String { "\(displayTitle) (\(pressing))" }
}

extension CollectionRow {
    /// "Artist — Title" once there is a title (the release's once matched, or the
    /// collector's own); the barcode as printed until then (`GTIN.printedForm`); "(no
    /// barcode)" when there is neither.
    public var displayTitle: String {
        guard let title, !title.isEmpty else { return gtin.isEmpty ? "(no barcode)" : GTIN.printedForm(of: gtin) }
        return DisplayTitle.of(artist: artist ?? "", title: title)
    }
}

extension RecordDetails {
    /// The values shown for the record: the collector's own over the release's.
    public var shown: RecordFields { RecordFields.shown(collector: record.collector, release: release) }

    /// "Artist — Title" as shown, else the barcode as printed, else what the record says of
    /// itself.
    public var displayTitle: String {
        let shown = self.shown
        if let title = shown.title { return DisplayTitle.of(artist: shown.artist ?? "", title: title) }
        return record.gtin?.printedForm ?? record.subject
    }
}
