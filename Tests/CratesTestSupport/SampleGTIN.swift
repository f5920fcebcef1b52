import CratesCore

/// A valid EAN-13 made from `n` (0 to 9,999,999,999): "50", ten digits, and the GS1 check
/// digit (GS1 General Specifications §7.9: weights 3, 1, 3, … from the rightmost data digit).
/// Distinct numbers, distinct barcodes.
public func sampleGTIN(_ n: Int) -> GTIN {
    let body = "50" + String(repeating: "0", count: max(0, 10 - String(n).count)) + String(n)
    let digits = body.compactMap(\.wholeNumberValue)
    let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
    guard let gtin = GTIN(canonical: body + String((10 - sum % 10) % 10)) else {
        preconditionFailure("sample GTIN \(body) is invalid")
    }
    return gtin
}
