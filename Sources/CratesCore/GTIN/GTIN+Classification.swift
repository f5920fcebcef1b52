extension GTIN {
    /// The issuing GS1 organisation, or the class of number that is not a record.
    ///
    /// GTIN-13 and GTIN-12 (as 13 digits with a leading 0) follow the GS1 Prefix list of the
    /// GS1 General Specifications: the special ranges by rule (ISMN 9790 before ISBN 978-979;
    /// ISSN 977; coupons 050-059, 981-984, 99; refund receipts 980; restricted circulation
    /// 020-029, 040-049, 200-299), then the prefix table for the issuing organisation. A
    /// GTIN-14's GS1 prefix follows its indicator digit, and the same rules apply to it.
    ///
    /// GTIN-8s have their own rule (GS1-8 prefixes): only 100-139 and 300-969 are assigned,
    /// through the same organisations as GTIN-13; a GTIN-8 starting 0 or 2 is a restricted
    /// circulation number (RCN-8); the others are reserved. So an EAN-8 starting 978 is not an
    /// ISBN, and one starting 20 is a shop's own label.
    public var classification: GTINClass {
        let digits = Array(canonical.utf8)
        if digits.count == 8 { return Self.classifyGTIN8(canonical) }
        let body = digits.count == 14 ? canonical.dropFirst() : Substring(canonical)
        let prefixText = String(body.prefix(3))
        guard let prefix = Int(prefixText) else { return .unassigned(prefix: prefixText) }
        if body.hasPrefix("9790") { return .ismn }
        switch prefix {
        case 20...29, 40...49, 200...299: return .restrictedCirculation
        case 50...59, 981...984, 990...999: return .coupon
        case 977: return .issn
        case 978, 979: return .isbn
        case 980: return .refundReceipt
        default: return Self.issuer(prefix, prefixText)
        }
    }

    /// Why this GTIN is not worth a Discogs lookup (an ISBN, a coupon…), or nil.
    public var notARecordReason: String? { classification.notARecordReason }

    /// Whether a Discogs lookup is worth making for this GTIN.
    public var isMusicReleaseCandidate: Bool { classification.isMusicReleaseCandidate }

    private static func classifyGTIN8(_ canonical: String) -> GTINClass {
        let prefixText = String(canonical.prefix(3))
        guard let prefix = Int(prefixText) else { return .unassigned(prefix: prefixText) }
        switch prefix {
        case 0...99, 200...299: return .restrictedCirculation
        case 100...139, 300...969: return issuer(prefix, prefixText)
        default: return .unassigned(prefix: prefixText)
        }
    }

    private static func issuer(_ prefix: Int, _ prefixText: String) -> GTINClass {
        guard let entry = GS1PrefixTable.entry(forPrefix: prefix) else { return .unassigned(prefix: prefixText) }
        return .issuer(entry.usedBy)
    }
}
