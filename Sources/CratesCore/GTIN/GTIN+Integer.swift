/// A GTIN as one integer, for holding a million of them compactly (an import file's lines).
///
/// Every GTIN is a 14-digit number at heart (GS1 General Specifications §3.3.2: shorter
/// GTINs are right-aligned with leading zeros in the 14-digit field), and the canonical form
/// is a function of those 14 digits (see `GTIN`), so the number alone gives the GTIN back.
/// 10¹⁴ fits in 47 bits.
extension GTIN {
    /// The 14-digit form read as a number (leading zeros are implied by the width).
    public var gtin14Value: UInt64 {
        var value: UInt64 = 0
        for byte in canonical.utf8 { value = value &* 10 &+ UInt64(byte &- UInt8(ascii: "0")) }
        return value
    }

    /// The GTIN whose 14-digit form is `value`; nil when it is not a valid GTIN (wrong check
    /// digit, or more than 14 digits).
    public init?(gtin14Value value: UInt64) {
        guard value < 100_000_000_000_000 else { return nil }
        var digits = [UInt8](repeating: 0, count: 14)
        var rest = value
        for index in stride(from: 13, through: 0, by: -1) {
            digits[index] = UInt8(rest % 10)
            rest /= 10
        }
        self.init(digits: digits)
    }
}
