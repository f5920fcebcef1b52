/// A release's genres, styles, formats, country and labels as small numbers: each string is
/// stored once (`term` and `label` tables) and a release holds a short run of varints
/// (LEB128): about 10 bytes instead of about 80, which keeps the catalogue near 3 GB for the
/// whole of Discogs.
///
/// Layout: count and term ids of the genres, of the styles, of the formats (their summaries),
/// then the country's term id (0: none), then count and Discogs ids of the labels (0: a label
/// without an id, whose name is in the release's `labels` text).
struct CatalogueFacets: Hashable, Sendable {
    var genres: [Int] = []
    var styles: [Int] = []
    var formats: [Int] = []
    var country = 0
    var labels: [Int] = []

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for group in [genres, styles, formats] {
            Self.append(group.count, to: &bytes)
            for value in group { Self.append(value, to: &bytes) }
        }
        Self.append(country, to: &bytes)
        Self.append(labels.count, to: &bytes)
        for value in labels { Self.append(value, to: &bytes) }
        return bytes
    }

    init() {}

    /// Reads what `encoded()` wrote; nil when the bytes are not that.
    init?(_ bytes: [UInt8]) {
        var index = 0
        func next() -> Int? {
            var value = 0
            var shift = 0
            while index < bytes.count, shift < 63 {
                let byte = bytes[index]
                index += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        func group() -> [Int]? {
            guard let count = next(), count <= bytes.count else { return nil }
            var values: [Int] = []
            for _ in 0..<count {
                guard let value = next() else { return nil }
                values.append(value)
            }
            return values
        }
        guard let genres = group(), let styles = group(), let formats = group(), let country = next(), let labels = group() else {
            return nil
        }
        self.genres = genres
        self.styles = styles
        self.formats = formats
        self.country = country
        self.labels = labels
    }

    private static func append(_ value: Int, to bytes: inout [UInt8]) {
        var rest = UInt(bitPattern: value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
