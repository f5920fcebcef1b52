/// The barcode searches one GTIN deserves.
public struct DiscogsBarcodeQuery: Hashable, Sendable {
    /// The barcode texts to search for, in order, without repeats.
    public var forms: [String]
    /// Why no search at all is worth a request (a shop's price label), or nil.
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
    /// spaced forms as printed). None for a restricted-circulation number, which is never a
    /// record's (`BarcodeAdmission.reserved`), nor for a crates label (`.label`): looking one
    /// up never costs a Discogs request. A book or a magazine that a person chose to
    /// add is searched like any barcode (Discogs lists audiobooks under their ISBNs).
    public init(gtin: GTIN) {
        switch gtin.admission {
        case .reserved(let reason): self.init(forms: [], skipReason: reason)
        case .label(let code): self.init(forms: [], skipReason: code.notARecordReason)
        case .record, .confirm: self.init(forms: gtin.lookupForms)
        }
    }
}
