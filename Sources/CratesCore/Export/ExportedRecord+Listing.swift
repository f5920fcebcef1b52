extension ExportedRecord {
    /// The columns of `crates list`, in order. Stable: new columns are only ever added at
    /// the end, so `cut -f` and `awk -F'\t'` scripts keep working.
    public static let listingColumns = [
        "id", "gtin", "state", "section", "artist", "title", "format", "year", "label", "catno",
        "release_id", "added",
    ]

    /// The record as one line of tab-separated `listingColumns` (without the line break).
    /// A value crates does not know is an empty field. Tabs, line breaks and other control
    /// characters inside a value become spaces (`TabSeparatedText`), so a record is always
    /// exactly one line.
    public var listingLine: String {
        let release = self.release
        var fields: [String] = [String(record.id), record.gtin.known?.canonical ?? "", record.lookupState.rawValue, section]
        fields.append(release?.artist ?? "")
        fields.append(release?.title ?? "")
        fields.append(release?.formatsText ?? "")
        fields.append(release?.year.map { String($0) } ?? "")
        fields.append(release?.labelNamesText ?? "")
        fields.append(release?.catalogNumbersText ?? "")
        fields.append(release.map { String($0.id) } ?? "")
        fields.append(UTCTimestamp.format(record.addedAt, .iso8601))
        return TabSeparatedText.line(fields)
    }
}
