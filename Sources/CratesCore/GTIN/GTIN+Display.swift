extension GTIN {
    /// `input` made safe to echo on a terminal or in a tab-separated column (see
    /// `EscapedText.displayForm`): a scanner gone wild can send kilobytes and control bytes.
    public static func displayForm(of input: String, limit: Int = 64) -> String {
        EscapedText.displayForm(of: input, limit: limit)
    }
}

extension GTIN {
    /// The barcode for people: a UPC-A as its sleeve prints it, `0 74644 02251 3` (its 12
    /// digits in the groups under the bars, the spacing `lookupForms` and `crates barcode`
    /// give), not the canonical 13 digits with a leading 0, which no sleeve shows; any other
    /// kind as its digits (an EAN-13's 13 digits are the ones under its bars). Scripts get
    /// `canonical` (tab-separated and JSON output): a spaced form is for reading, not for
    /// matching.
    public var printedForm: String {
        guard kind == .upcA, let upcA else { return canonical }
        return Self.spaced(upcA, groups: [1, 5, 5, 1])
    }

    /// `digits` (a stored canonical GTIN) as `printedForm`; as given when it is not a GTIN.
    public static func printedForm(of digits: String) -> String {
        guard digits.hasPrefix("0"), let gtin = try? GTIN.parse(digits).gtin else { return digits }
        return gtin.printedForm
    }
}
