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
        var bytes: [UInt8] = []
        appendListingLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `listingLine` (without the line break) to `bytes`: `crates list` writes a
    /// page of them as bytes, never a String per field (a million records spent a third of
    /// their time building, cleaning and joining those).
    public func appendListingLine(to bytes: inout [UInt8]) {
        let shown = self.shown
        bytes.reserveCapacity(bytes.count + 160)
        func field(_ text: String) {
            TabSeparatedText.append(text, to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
        }
        func number<Number: BinaryInteger>(_ value: Number?) {
            if let value { bytes.append(contentsOf: String(value).utf8) }
            bytes.append(UInt8(ascii: "\t"))
        }
        number(record.id)
        field(record.gtin?.canonical ?? "")
        field(record.lookupState.rawValue)
        field(section)
        field(shown.artist ?? "")
        field(shown.title ?? "")
        field(shown.format ?? "")
        number(shown.year)
        field(shown.label ?? "")
        field(shown.catno ?? "")
        number(release?.id)
        UTCTimestamp.append(record.addedAt, .iso8601, to: &bytes)
        bytes.append(UInt8(ascii: "\t"))
        var first = true
        for name in record.collector.fields {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            TabSeparatedText.append(name.rawValue, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\t"))
        if let location = record.location { TabSeparatedText.append(location.pathText, to: &bytes) }
    }
}
