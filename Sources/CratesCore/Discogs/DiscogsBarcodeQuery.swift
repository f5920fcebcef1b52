/// The barcode searches one GTIN deserves.
public struct DiscogsBarcodeQuery: Hashable, Sendable {
    /// The barcode texts to search for, in order, without repeats.
    public var forms: [String]
    /// Why no search at all is worth a request (an ISBN, an ISSN, a coupon…), or nil.
    public var skipReason: String?

    /// `forms` is deduplicated keeping the first occurrence: a form is never searched twice.
    public init(forms: [String], skipReason: String? = nil) {
        var seen = Set<String>()
        self.forms = forms.filter { seen.insert($0).inserted }
        self.skipReason = skipReason
    }
}

extension DiscogsBarcodeQuery {
    /// The searches for `gtin`: its lookup forms (13 digits, 12-digit UPC-A, UPC-E, the
    /// spaced forms as printed), or none when the GTIN is not a record (a book, a magazine,
    /// a coupon…).
    public init(gtin: GTIN) {
        if let reason = gtin.notARecordReason {
            self.init(forms: [], skipReason: reason)
        } else {
            self.init(forms: gtin.lookupForms)
        }
    }
}
