import CratesCore

/// One label: a barcode, a title (a place's name) and the path above it
/// ("Living Room › Shelf 2").
public struct Label: Hashable, Sendable {
    /// The symbol drawn for the code.
    public enum Symbology: String, Hashable, Sendable, CaseIterable {
        /// EAN-13: what every retail scanner reads, and what a keyboard wedge types as digits.
        case ean13
        /// A QR code holding the 13 digits, for cameras.
        case qr
    }

    /// What the symbol encodes: 13 digits for an EAN-13.
    public var code: GTIN
    /// The first line: a place's name, or a copy's "Artist — Title".
    public var title: String
    /// The places above, outermost first ("Living Room", "Shelf 2"); empty for a room. Shown
    /// joined by " › ", shortened from the outermost when too long.
    public var path: [String]
    public var symbology: Symbology

    /// A title wider than the label even at the smallest readable size is cut with "…",
    /// a place's name as a copy's title (one rule): the barcode, not the text, is what tells
    /// one label from another to a scanner, and the plan says which titles were cut
    /// (`PlacedLabel.cutFrom`) so that the caller can tell the collector.
    public init(code: GTIN, title: String, path: [String] = [], symbology: Symbology = .ean13) {
        self.code = code
        self.title = title
        self.path = path
        self.symbology = symbology
    }

    /// A place's label: its code, its name and the places it is in.
    public init(location code: LabelCode, name: String, path: [String], symbology: Symbology = .ean13) {
        self.init(code: code.gtin, title: name, path: path, symbology: symbology)
    }

    /// A copy's label: its code, a title ("Artist — Title"), and a path (where it lives, or
    /// its format and year: the caller's choice).
    public init(copy code: LabelCode, title: String, path: [String] = [], symbology: Symbology = .ean13) {
        self.init(code: code.gtin, title: title, path: path, symbology: symbology)
    }

    /// The separator drawn between the places of a path.
    public static let pathSeparator = " › "
}

/// A crate's contents list: the chapter's moving-box manifest, a page of its own with the
/// crate's name, path and barcode, then its records, flowing onto more pages when long.
public struct LabelContents: Hashable, Sendable {
    /// One record in the list. Every field is optional: a record not yet looked up has no
    /// artist or title (pass its barcode as `title` then).
    public struct Entry: Hashable, Sendable {
        public var artist: String?
        public var title: String?
        public var format: String?
        public var year: Int?
        public var catalogueNumber: String?
        /// Where in the listed place the record is: the path of the place inside it that
        /// holds it ("Shelf 2 › Crate A3"); nil when it is in the listed place itself.
        public var place: String?
        /// A place inside the listed one (`title` its name, `catalogueNumber` its label's
        /// code), with how many records it holds (`format`): its own list says which.
        public var isPlace = false

        public init(
            artist: String? = nil, title: String? = nil, format: String? = nil, year: Int? = nil,
            catalogueNumber: String? = nil, place: String? = nil
        ) {
            self.artist = artist
            self.title = title
            self.format = format
            self.year = year
            self.catalogueNumber = catalogueNumber
            self.place = place
        }

        /// A place inside the listed one: "▸ Shelf 2", "12 records", its label's code.
        public static func place(name: String, records: Int, code: String?) -> Entry {
            var entry = Entry(title: "▸ " + name, format: records == 1 ? "1 record" : "\(records) records", catalogueNumber: code)
            entry.isPlace = true
            return entry
        }

        /// A record Discogs has described: its artist, title, formats, year and catalogue
        /// numbers, as the list and the export show them.
        public init(release: Release) {
            self.init(
                artist: release.artist, title: release.title, format: release.formatsText.nilIfEmpty,
                year: release.year, catalogueNumber: release.catalogNumbersText.nilIfEmpty)
        }
    }

    /// The crate's own label: its code, name and path head the list.
    public var label: Label
    public var entries: [Entry]

    public init(label: Label, entries: [Entry]) {
        self.label = label
        self.entries = entries
    }
}

extension String {
    /// Nil for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
