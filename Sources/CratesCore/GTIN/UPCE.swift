/// UPC-E, the zero-suppressed 8-digit form of some UPC-As (GS1 General Specifications,
/// the UPC-E zero-suppression rules of the EAN/UPC symbology section).
///
/// A UPC-E is a number system digit (0 or 1), six data digits d1…d6 and the check digit of
/// the UPC-A it stands for. d6 says where the suppressed zeros go:
///
/// | d6  | UPC-A (number system, 5-digit company part, 5-digit item part) |
/// |-----|----------------------------------------------------------------|
/// | 0-2 | d1 d2 d6 0 0 · 0 0 d3 d4 d5                                     |
/// | 3   | d1 d2 d3 0 0 · 0 0 0 d4 d5                                      |
/// | 4   | d1 d2 d3 d4 0 · 0 0 0 0 d5                                      |
/// | 5-9 | d1 d2 d3 d4 d5 · 0 0 0 0 d6                                     |
///
/// Expansion is many-to-one at the edges (for instance `120003` and `120000` expand alike);
/// compression always gives the canonical UPC-E an encoder would print, so
/// `expand(compress(a)) == a` for every compressible UPC-A.
public enum UPCE {
    /// Expands an 8-digit UPC-E (number system, six digits, check digit) to its 12-digit
    /// UPC-A. The check digit is carried over, not verified: use `isValid(_:)` for that.
    /// Nil when `upcE` is not 8 ASCII digits starting with 0 or 1.
    public static func expand(_ upcE: String) -> String? {
        guard let digits = DigitString.values(of: upcE), digits.count == 8,
              digits[0] <= 1, let check = digits.last else { return nil }
        let body = expandBody(numberSystem: digits[0], data: Array(digits[1...6]))
        return DigitString.text(of: body + [check])
    }

    /// Compresses a 12-digit UPC-A to its 8-digit UPC-E, or nil when it has no UPC-E form
    /// (number system other than 0 or 1, or zeros not where UPC-E can suppress them).
    public static func compress(_ upcA: String) -> String? {
        guard let digits = DigitString.values(of: upcA), digits.count == 12,
              let data = compressBody(Array(digits.prefix(11))), let check = digits.last
        else { return nil }
        return DigitString.text(of: [digits[0]] + data + [check])
    }

    /// Whether `upcE` is 8 ASCII digits, number system 0 or 1, whose check digit is the check
    /// digit of its UPC-A expansion.
    public static func isValid(_ upcE: String) -> Bool {
        guard let upcA = expand(upcE) else { return false }
        return CheckDigit.isValid(upcA)
    }

    /// The 11-digit UPC-A body (no check digit) for a number system digit and six UPC-E
    /// data digits. Returns an empty array when `data` is not six digits.
    static func expandBody(numberSystem: UInt8, data d: [UInt8]) -> [UInt8] {
        guard d.count == 6 else { return [] }
        let ns = numberSystem
        switch d[5] {
        case 0...2: return [ns, d[0], d[1], d[5], 0, 0, 0, 0, d[2], d[3], d[4]]
        case 3: return [ns, d[0], d[1], d[2], 0, 0, 0, 0, 0, d[3], d[4]]
        case 4: return [ns, d[0], d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4]]
        default: return [ns, d[0], d[1], d[2], d[3], d[4], 0, 0, 0, 0, d[5]]
        }
    }

    /// The six UPC-E data digits for an 11-digit UPC-A body (number system first, no check
    /// digit), or nil when it cannot be zero-suppressed. The cases are tried in the order of
    /// the table above, which yields the canonical UPC-E.
    static func compressBody(_ a: [UInt8]) -> [UInt8]? {
        guard a.count == 11, a[0] <= 1 else { return nil }
        func zeros(_ range: ClosedRange<Int>) -> Bool { a[range].allSatisfy { $0 == 0 } }
        if a[3] <= 2, zeros(4...7) { return [a[1], a[2], a[8], a[9], a[10], a[3]] }
        if zeros(4...8) { return [a[1], a[2], a[3], a[9], a[10], 3] }
        if zeros(5...9) { return [a[1], a[2], a[3], a[4], a[10], 4] }
        if zeros(6...9), a[10] >= 5 { return [a[1], a[2], a[3], a[4], a[5], a[10]] }
        return nil
    }
}
