import CratesCore

/// The test targets' one set of builders for what the tests make up: barcodes and releases.
/// A test that needs another kind adds it here, not beside itself.
public enum Fixtures {
    /// A valid EAN-13 made from `n` (0 to 9,999,999,999): "50", ten digits, and the GS1
    /// check digit (GS1 General Specifications §7.9: weights 3, 1, 3, … from the rightmost
    /// data digit). Distinct numbers, distinct barcodes.
    public static func gtin(_ n: Int) -> GTIN {
        let body = "50" + String(repeating: "0", count: max(0, 10 - String(n).count)) + String(n)
        let digits = body.compactMap(\.wholeNumberValue)
        let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return gtin(body + String((10 - sum % 10) % 10))
    }

    /// The GTIN a test writes out: canonical digits, or any form `GTIN.parse` reads. A test's
    /// own constant, not outside input: one that is no GTIN is the test's mistake, and stops it.
    public static func gtin(_ text: String) -> GTIN {
        guard let gtin = GTIN(canonical: text) ?? (try? GTIN.parse(text).gtin) else {
            preconditionFailure("test GTIN \(text) is invalid")
        }
        return gtin
    }

    /// A release as a catalogue built from Discogs' dump holds it, without its full details:
    /// "Artist 7 — Title 7" (the title of its master when it has one, so that pressings of
    /// one master share it), on "Label" as "CAT 7", a vinyl LP.
    public static func catalogueRelease(
        _ id: Int, master: Int? = nil, genre: String = "Jazz", country: String? = nil, year: Int = 1971
    ) -> Release {
        Release(
            id: id, artist: "Artist \(id)", title: "Title \(master ?? id)", genres: [genre], formats: ["Vinyl, LP"], year: year,
            country: country, labels: [.init(name: "Label", catno: "CAT \(id)")],
            rawJSON: master.map { #"{"id":\#(id),"master_id":\#($0)}"# } ?? #"{"id":\#(id)}"#, hasFullDetails: false)
    }
}
