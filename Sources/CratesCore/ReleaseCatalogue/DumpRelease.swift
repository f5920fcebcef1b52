/// One `<release>` of Discogs' data dump, as much of it as the catalogue keeps: what a record
/// is completed from, and its three ways in (barcodes, catalogue numbers, artist and title).
/// The tracklist, credits, notes, videos and companies stay in the dump.
public struct DumpRelease: Hashable, Sendable {
    /// A credited artist: the name as Discogs links it ("E.B.E. (2)") and the word joining it
    /// to the next ("&", "Vs.", ","; empty for the last).
    public struct Artist: Hashable, Sendable {
        public var name: String
        public var join: String
        public init(name: String, join: String = "") {
            self.name = name
            self.join = join
        }
    }

    /// A `<label>`: its name, catalogue number and Discogs id (0 when absent).
    public struct Label: Hashable, Sendable {
        public var name: String
        public var catno: String
        public var id: Int
        public init(name: String, catno: String, id: Int = 0) {
            self.name = name
            self.catno = catno
            self.id = id
        }
    }

    /// A `<format>`: its name ("Vinyl"), quantity, free text and descriptions ("LP", "Album").
    public struct Format: Hashable, Sendable {
        public var name: String
        public var quantity: String
        public var text: String
        public var descriptions: [String]
        public init(name: String, quantity: String = "1", text: String = "", descriptions: [String] = []) {
            self.name = name
            self.quantity = quantity
            self.text = text
            self.descriptions = descriptions
        }

        /// "Vinyl, 12\", EP, 33 ⅓ RPM": as crates shows a format elsewhere (the name, then its
        /// descriptions, then its free text).
        public var summary: String {
            var summary = name
            for part in descriptions where !part.isEmpty {
                if !summary.isEmpty { summary += ", " }
                summary += part
            }
            if !text.isEmpty {
                if !summary.isEmpty { summary += ", " }
                summary += text
            }
            return summary
        }
    }

    /// The most bytes of one text a release keeps (a title, a name, a catalogue number, a
    /// barcode as written): a longer one is cut at a character's boundary. No record shows
    /// more, and a field of megabytes would otherwise be held, stored and printed whole.
    public static let fieldLimit = 1_000
    /// The most artists, labels, formats, genres, styles, descriptions or barcodes a release
    /// keeps; what is listed after them is left out.
    public static let listLimit = 200

    public var id: Int
    /// `status` as the release carried it; nil when absent (dumps since 2026 write none).
    public var status: String?
    public var artists: [Artist]
    public var title: String
    public var labels: [Label]
    public var formats: [Format]
    public var genres: [String]
    public var styles: [String]
    public var country: String?
    /// `released` as written: "YYYY", "YYYY-MM-DD", "YYYY-MM-00", "YYYY-00-00"; nil when missing.
    public var released: String?
    /// The master release; nil for none (the dump writes 0 or leaves it out).
    public var masterID: Int?
    /// Whether this release is its master's main release.
    public var isMainRelease: Bool
    /// The values of its identifiers of type Barcode, as written, in order.
    public var barcodes: [String]

    public init(
        id: Int, status: String? = nil, artists: [Artist] = [], title: String = "", labels: [Label] = [],
        formats: [Format] = [], genres: [String] = [], styles: [String] = [], country: String? = nil,
        released: String? = nil, masterID: Int? = nil, isMainRelease: Bool = false, barcodes: [String] = []
    ) {
        self.id = id
        self.status = status
        self.artists = artists
        self.title = title
        self.labels = labels
        self.formats = formats
        self.genres = genres
        self.styles = styles
        self.country = country
        self.released = released
        self.masterID = masterID
        self.isMainRelease = isMainRelease
        self.barcodes = barcodes
    }

    /// Whether the catalogue keeps it: releases Discogs accepted, which is every release of
    /// a dump that no longer writes a status. Older dumps also listed drafts, deleted and
    /// rejected releases.
    public var isListed: Bool { status == nil || status == "Accepted" }

    /// The artists as Discogs shows them: names joined by their join words ("Heiko Laux &
    /// Johannes Heil", "A, B"), suffixes such as " (2)" kept (`DiscogsName.displayCredit`
    /// removes them for display).
    public var artistCredit: String {
        var text = ""
        for (index, artist) in artists.enumerated() {
            text += artist.name.trimmingSpaces
            guard index < artists.count - 1 else { break }
            let join = artist.join.trimmingSpaces
            switch join {
            case "", ",": text += ", "
            default: text += " \(join) "
            }
        }
        return text
    }

    /// The year of `released` ("1999-07-13" → 1999); nil when missing or 0.
    public var year: Int? { Self.released(released).year }

    /// `released` as one number, YYYYMMDD with 00 for an unknown month or day (nil when
    /// missing or not a date): 19990713, 20040000.
    public var releasedNumber: Int? { Self.released(released).number }

    static func released(_ text: String?) -> (year: Int?, number: Int?) {
        guard let text else { return (nil, nil) }
        return releasedASCII(text) ?? releasedByCharacters(text)
    }

    /// `released` read as characters: "-"-separated fields, each as `Int` reads it.
    static func releasedByCharacters(_ text: String) -> (year: Int?, number: Int?) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let year = Int(parts[0]), (1...9999).contains(year) else { return (nil, nil) }
        let month = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let day = parts.count > 2 ? Int(parts[2]) ?? 0 : 0
        guard (0...12).contains(month), (0...31).contains(day) else { return (year, year * 10_000) }
        return (year, year * 10_000 + month * 100 + day)
    }

    /// `releasedByCharacters` of an ASCII text (every date a dump writes), read byte by byte;
    /// nil when `text` is not ASCII. `split` and `Int` walk a String's characters (grapheme
    /// breaking), which cost a catalogue build more than writing the release's row did.
    static func releasedASCII(_ text: String) -> (year: Int?, number: Int?)? {
        // The fields read so far (year, month, day), and how many there are.
        var fields: (Int?, Int?, Int?) = (nil, nil, nil)
        var count = 0
        // The field being read, as `Int` reads it: an optional "+", then decimal digits.
        var value = 0
        var digits = 0
        var plus = false
        var invalid = false
        func close() {
            let read = invalid || digits == 0 ? nil : value
            switch count {
            case 0: fields.0 = read
            case 1: fields.1 = read
            case 2: fields.2 = read
            default: break
            }
            count += 1
            value = 0
            digits = 0
            plus = false
            invalid = false
        }
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case UInt8(ascii: "-"):
                close()
            case UInt8(ascii: "+") where digits == 0 && !plus && !invalid:
                plus = true
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !invalid:
                let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowedSum) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                if overflowed || overflowedSum { invalid = true } else { value = sum }
                digits += 1
            default:
                invalid = true
            }
        }
        close()
        guard count <= 3, let year = fields.0, (1...9999).contains(year) else { return (nil, nil) }
        let month = fields.1 ?? 0
        let day = fields.2 ?? 0
        guard (0...12).contains(month), (0...31).contains(day) else { return (year, year * 10_000) }
        return (year, year * 10_000 + month * 100 + day)
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        // Fast path (almost every name): it begins and ends with a visible ASCII character.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return Substring(self)
        }
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return s
    }
}
