extension GTIN {
    /// The barcode texts a Discogs search should try, in order, without repeats. Discogs
    /// stores barcodes as users typed them from the sleeve, so the forms as printed matter.
    ///
    /// - EAN-13: the 13 digits, then `d dddddd dddddd` (spaces where the guard bars sit).
    /// - UPC-A: the 13 digits, the 12-digit UPC-A, its 8-digit UPC-E when it can be zero-
    ///   suppressed (a sleeve may carry the UPC-E while the scanner sent the UPC-A), then
    ///   `d ddddd ddddd d` and, for a UPC-E, `d dddddd d`. The EAN-13 spacing is not tried
    ///   for a UPC-A: no sleeve prints a UPC-A that way.
    /// - EAN-8: the 8 digits, then `dddd dddd`.
    /// - GTIN-14: the 14 digits only: a carton has no customary printed grouping.
    public var lookupForms: [String] { lookupForms(scannedUPCE: nil) }

    /// The lookup forms, with a UPC-E as scanned (which may differ from the canonical UPC-E
    /// of the same UPC-A) placed with the UPC-E forms.
    func lookupForms(scannedUPCE: String?) -> [String] {
        var forms: [String] = [canonical]
        switch kind {
        case .ean13:
            forms.append(Self.spaced(canonical, groups: [1, 6, 6]))
        case .upcA, .upcE:
            let upcEs = [scannedUPCE, upcE].compactMap { $0 }
            if let upcA { forms.append(upcA) }
            forms += upcEs
            if let upcA { forms.append(Self.spaced(upcA, groups: [1, 5, 5, 1])) }
            forms += upcEs.map { Self.spaced($0, groups: [1, 6, 1]) }
        case .ean8:
            if let scannedUPCE { forms += [scannedUPCE, Self.spaced(scannedUPCE, groups: [1, 6, 1])] }
            forms.append(Self.spaced(canonical, groups: [4, 4]))
        case .gtin14:
            break
        }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }

    /// `text` cut into groups of the given sizes, joined by spaces.
    static func spaced(_ text: String, groups: [Int]) -> String {
        var parts: [Substring] = []
        var rest = Substring(text)
        for size in groups where !rest.isEmpty {
            parts.append(rest.prefix(size))
            rest = rest.dropFirst(size)
        }
        if !rest.isEmpty { parts.append(rest) }
        return parts.joined(separator: " ")
    }
}
