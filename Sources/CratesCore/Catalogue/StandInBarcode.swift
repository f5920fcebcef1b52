/// The barcode crates stores for a copy whose own barcode it does not know: a copy pulled
/// from the user's Discogs collection by `crates sync`, whose release comes from the list's
/// `basic_information`, which carries no barcode (and a request per release to learn it
/// would cost a minute per 60 copies).
///
/// Every record has a GTIN in this version of the store, so such a copy gets one that can
/// never be a real barcode: `292` + the Discogs release id (9 digits, zero-padded) + the GS1
/// check digit, in GS1's restricted-distribution range 200–299 (GS1 General Specifications
/// §1.4.5), beside crates' own label codes (290, 291: `LabelCode`). Such a number is refused
/// as a scan (`BarcodeAdmission.reserved`), so it never meets a record's own barcode; every
/// place that shows a barcode shows none for it (`GTIN.isStandIn`).
public enum StandInBarcode {
    public static let prefix = "292"

    /// The stand-in for a copy of `releaseID` (release ids beyond 9 digits share
    /// `2920000000000`'s stand-in: only the prefix matters to the rules).
    public static func gtin(releaseID: Int) -> GTIN {
        let id = LabelCode.idRange.contains(releaseID) ? releaseID : 0
        let body = prefix + LabelCode.zeroPadded(id)
        // 12 ASCII digits and their check digit: always a valid GTIN-13.
        guard let digits = DigitString.values(of: body), let gtin = GTIN(digits: digits + [CheckDigit.compute(body: digits)]) else {
            preconditionFailure("the stand-in barcode of release \(releaseID) is not a GTIN")
        }
        return gtin
    }
}

extension GTIN {
    /// True for the stand-in of a copy whose barcode crates does not know (`StandInBarcode`):
    /// shown as no barcode at all.
    public var isStandIn: Bool {
        canonical.utf8.count == 13 && canonical.hasPrefix(StandInBarcode.prefix)
    }

    /// The barcode to show: nil for a stand-in.
    public var known: GTIN? { isStandIn ? nil : self }
}
