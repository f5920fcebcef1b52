extension ExportedRecord {
    /// The columns of `crates list`, in order. Stable: new columns are only ever added at
    /// the end, so `cut -f` and `awk -F'\t'` scripts keep working.
    public static let listingColumns = [
        "id", "gtin", "state", "section", "artist", "title", "format", "year", "label", "catno",
        "release_id", "added", "collector", "place",
    ]

    /// The record as one line of tab-separated `listingColumns` (without the line break).
    /// A value crates does not know is an empty field (the gtin of a record without a
    /// barcode). Artist to catno are the values shown: the collector's own where set, else
    /// Discogs'; `collector` names the fields that are the collector's ("title,year");
    /// `place` is the copy's place as a path ("Living Room › Shelf 2 › Crate A3"), empty when
    /// it is in none.
    /// Tabs, line breaks and other control characters inside a value become spaces
    /// (`TabSeparatedText`), so a record is always exactly one line.
    public var listingLine: String {
        let shown = self.shown
        var fields: [String] = [String(record.id), record.gtin?.canonical ?? "", record.lookupState.rawValue, section]
        fields.append(shown.artist ?? "")
        fields.append(shown.title ?? "")
        fields.append(shown.format ?? "")
        fields.append(shown.year.map { String($0) } ?? "")
        fields.append(shown.label ?? "")
        fields.append(shown.catno ?? "")
        fields.append(release.map { String($0.id) } ?? "")
        fields.append(UTCTimestamp.format(record.addedAt, .iso8601))
        fields.append(record.collector.fields.map(\.rawValue).joined(separator: ","))
        fields.append(record.location?.pathText ?? "")
        return TabSeparatedText.line(fields)
    }
}
