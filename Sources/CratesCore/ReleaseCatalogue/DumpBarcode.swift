/// Barcodes as Discogs' data dump writes them among a release's identifiers, read as crates
/// reads a barcode anywhere else (`GTIN.parse`).
///
/// About half the dump's values are not bare digits: digit groups as printed
/// ("0 602498 674123", "0-77774-62002-4"), the light-margin indicator a sleeve prints after an
/// EAN ("7 961220 922684 >", written `&gt;` in the XML and decoded by the parser), a "Text" and
/// a "Scanned" form of one code, or both the UPC-A and the EAN-13 of one code. All of them give
/// one key, `GTIN.gtin14Value`. A value whose check digit is wrong as printed, and runout or
/// other text typed into the field, is no barcode and gives none: an index entry that no
/// scanner can ever produce would only be noise.
public enum DumpBarcode {
    /// The GTIN of a dump value, or nil when it is not a barcode.
    ///
    /// Besides what `GTIN.parse` accepts, a trailing ">" (and a leading "<", EAN-8's left
    /// margin) is dropped. Refused, unlike a scan: 6- and 7-digit UPC-E forms whose number
    /// system or check digit would be assumed (a short number in that field is a catalogue
    /// or matrix number far more often than a UPC-E), since only a printed check digit can
    /// be checked.
    public static func gtin(_ value: String) -> GTIN? {
        var bytes = Substring(value).utf8[...]
        // Fast path: bare ASCII digits of a GTIN-12, -13 or -14 (most values in the dump).
        if (12...14).contains(bytes.count), bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return GTIN(digits: bytes.map { $0 - UInt8(ascii: "0") })
        }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: ">") { bytes.removeLast() }
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "<") { bytes.removeFirst() }
        if let gtin = groupedDigits(bytes) { return gtin }
        return parsed(bytes)
    }

    /// Digit groups as printed ("0 602498 674123", "0-77774-62002-4"): ASCII digits split by
    /// spaces and hyphens, 12 to 14 of them with a right check digit, are what `GTIN.parse`
    /// makes of them (the whole run of digits, checked), without its reading character by
    /// character: that was a third of the time the dump's keys took, on the dump reader's
    /// busiest thread. Anything else (other lengths, a wrong check digit that an add-on
    /// might explain, other characters) is nil here, and read by `parsed`.
    static func groupedDigits(_ bytes: Substring.UTF8View) -> GTIN? {
        var digits: [UInt8] = []
        digits.reserveCapacity(14)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits.count < 14 else { return nil }
                digits.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: " "), UInt8(ascii: "-"):
                continue
            default:
                return nil
            }
        }
        guard digits.count >= 12 else { return nil }
        return GTIN(digits: digits)
    }

    /// The value (its margin marks dropped) as `GTIN.parse` reads it, nil when the parse
    /// assumed a digit that was not printed.
    static func parsed(_ bytes: Substring.UTF8View) -> GTIN? {
        guard !bytes.isEmpty, let text = String(bytes), let parsed = try? GTIN.parse(text) else { return nil }
        let assumed = parsed.notes.contains { note in
            switch note {
            case .numberSystemAssumed, .checkDigitComputed: true
            default: false
            }
        }
        return assumed ? nil : parsed.gtin
    }

    /// The keys (`GTIN.gtin14Value`) of every value given, each once, in ascending order:
    /// every barcode of a release is indexed, not only its first or last.
    public static func keys(_ values: some Sequence<String>) -> [UInt64] {
        var keys: [UInt64] = []
        for value in values {
            guard let key = gtin(value)?.gtin14Value, !keys.contains(key) else { continue }
            keys.append(key)
        }
        return keys.sorted()
    }

    /// The keys (`CatalogueNumber.key`) of a release's catalogue numbers, each once, in
    /// ascending order: a release often lists one label twice with variants of one number
    /// ("SK 026" and "SK026"), which are one key. Discogs' "none" and empty numbers give none.
    public static func catalogueNumberKeys(_ numbers: some Sequence<String>) -> [String] {
        var keys: [String] = []
        for number in numbers {
            let key = CatalogueNumber.key(number)
            guard !key.isEmpty, key != "none", !keys.contains(key) else { continue }
            keys.append(key)
        }
        return keys.sorted()
    }
}
