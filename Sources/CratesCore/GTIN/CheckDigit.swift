/// The GS1 mod-10 check digit shared by every GTIN (GS1 General Specifications §7.9.1).
///
/// From the rightmost digit of the body (the number without its check digit) leftwards the
/// weights alternate 3, 1, 3, 1…; the check digit brings the weighted sum up to a multiple of
/// ten. Because the weights are anchored on the right, one function serves GTIN-8, -12, -13
/// and -14, and left-padding a GTIN with zeros never changes its check digit.
public enum CheckDigit {
    /// The check digit for `body`, given as digit values 0…9, most significant first.
    public static func compute(body: some BidirectionalCollection<UInt8>) -> UInt8 {
        var sum = 0
        var weight = 3
        for digit in body.reversed() {
            sum += Int(digit) * weight
            weight = 4 - weight  // 3, 1, 3, 1…
        }
        return UInt8((10 - sum % 10) % 10)
    }

    /// Whether the last digit of `digits` is the check digit of the ones before it.
    /// Fewer than two digits never validate.
    public static func isValid(_ digits: some BidirectionalCollection<UInt8>) -> Bool {
        guard digits.count >= 2, let last = digits.last else { return false }
        return compute(body: digits.dropLast()) == last
    }

    /// The check digit for a body of ASCII digits, or nil when `body` is empty or holds
    /// anything but ASCII digits.
    public static func compute(body: String) -> Int? {
        guard !body.isEmpty, let digits = DigitString.values(of: body) else { return nil }
        return Int(compute(body: digits))
    }

    /// Whether `digits` (ASCII digits, check digit last) carries a correct check digit.
    public static func isValid(_ digits: String) -> Bool {
        guard let values = DigitString.values(of: digits) else { return false }
        return isValid(values)
    }
}

/// Conversions between ASCII digit strings and digit values, for the GTIN code.
enum DigitString {
    /// The digit values of `text`, or nil when it holds anything but ASCII digits 0-9.
    static func values(of text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            values.append(byte - UInt8(ascii: "0"))
        }
        return values
    }

    /// ASCII digits for digit values 0…9.
    static func text(of values: some Sequence<UInt8>) -> String {
        String(decoding: values.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }
}
